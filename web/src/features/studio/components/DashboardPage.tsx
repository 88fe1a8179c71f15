import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { StudioPage } from './StudioPage';

type Slots = Pick<
  ComponentProps<typeof StudioPage>,
  'TrackSources' | 'RecentTracks' | 'ResultUnlock' | 'MixingStudio' | 'useUploadAccess'
>;

/** The dashboard (spec §2): the same work area and recent tracks; `?service=` preselects a service. */
export function DashboardPage(slots: Slots) {
  const { t } = useTranslation();
  return <StudioPage className="dashboard" header={<h1>{t('dashboard.title')}</h1>} {...slots} />;
}
