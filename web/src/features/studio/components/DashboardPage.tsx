import { useTranslation } from 'react-i18next';
import { StudioPage } from './StudioPage';

/** The dashboard (spec §2): the same work area; `?service=` preselects a service. */
export function DashboardPage() {
  const { t } = useTranslation();
  return (
    <StudioPage
      className="dashboard"
      header={<h1>{t('dashboard.title')}</h1>}
      footer={
        <>
          <h2>{t('dashboard.recentWorks')}</h2>
          <p className="muted">{t('dashboard.noWorks')}</p>
        </>
      }
    />
  );
}
