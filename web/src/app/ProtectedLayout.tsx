import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { PlanStatus } from '../features/billing/components/PlanStatus';
import { NotificationBell } from '../features/notifications/components/NotificationBell';
import { NotificationToasts } from '../features/notifications/components/NotificationToasts';
import { Footer } from '../features/shell/components/Footer';
import { Header } from '../features/shell/components/Header';

/** The signed-in shell: header (plan status and bell composed here), the page, the footer, notification toasts. */
export function ProtectedLayout() {
  const { t } = useTranslation();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <Header planStatus={<PlanStatus />} bell={<NotificationBell />} />
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <NotificationToasts />
    </div>
  );
}
