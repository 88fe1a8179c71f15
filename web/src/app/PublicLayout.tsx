import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { Logo } from '../components/icons';
import { Footer } from '../features/shell/components/Footer';

/** Pages anyone may see (the 404 page): the logo, the page and the footer. */
export function PublicLayout() {
  const { t } = useTranslation();
  return (
    <div className="shell">
      <header className="header">
        <Link to="/" className="header__logo" aria-label={t('nav.home')}>
          <Logo />
          <span aria-hidden="true">{t('app.name')}</span>
        </Link>
      </header>
      <main id="main" className="main">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
