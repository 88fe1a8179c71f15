import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { LANGUAGE_KEY, LANGUAGES } from '../lib/i18n';

export function Layout() {
  const { t, i18n } = useTranslation();
  return (
    <div className="shell">
      <header className="header">
        <Link to="/" className="header__logo" aria-label={t('app.name')}>
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>{t('app.name')}</span>
        </Link>
        <span className="header__tagline">{t('app.tagline')}</span>
      </header>
      <main className="main">
        <Outlet />
      </main>
      <footer className="footer">
        <label>
          <span className="visually-hidden">{t('language.label')}</span>
          <select
            value={i18n.language}
            onChange={(event) => {
              localStorage.setItem(LANGUAGE_KEY, event.target.value);
              void i18n.changeLanguage(event.target.value);
            }}
          >
            {LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {t(`language.${language}`)}
              </option>
            ))}
          </select>
        </label>
        <span>{t('footer.copyright', { year: new Date().getFullYear() })}</span>
      </footer>
    </div>
  );
}
