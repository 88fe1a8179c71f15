import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session/SessionProvider';
import { ServiceStatus } from './ServiceStatus';
import { StudioPage } from './StudioPage';

/** Home (spec §2): the greeting, the service selector and the work area, then the service status. */
export function HomePage(
  slots: Pick<
    ComponentProps<typeof StudioPage>,
    'TrackSources' | 'RecentTracks' | 'ResultUnlock' | 'MixingStudio' | 'useUploadAccess'
  >,
) {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <StudioPage
      className="home"
      header={
        <>
          <h1>{user?.givenName ? t('home.greeting', { name: user.givenName }) : t('home.title')}</h1>
          <p className="home__intro">{t('home.intro')}</p>
        </>
      }
      footer={<ServiceStatus />}
      {...slots}
    />
  );
}
