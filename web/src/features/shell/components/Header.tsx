import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Logo, MenuIcon } from '../../../components/icons';
import { ThemeToggle } from './ThemeToggle';
import { UserMenu } from './UserMenu';

interface HeaderProps {
  /** Plan badge and credits (billing). */
  planStatus?: ReactNode;
  /** The notification bell (notifications). */
  bell?: ReactNode;
}

/** Logo, navigation (collapsed behind a button under 768 px), plan status, bell, theme and user menu. */
export function Header({ planStatus, bell }: HeaderProps) {
  const { t } = useTranslation();
  const [navOpen, setNavOpen] = useState(false);
  const navId = useId();
  const { pathname, search } = useLocation();
  useEffect(() => setNavOpen(false), [pathname, search]);

  return (
    <header className="header">
      <Link to="/" className="header__logo" aria-label={t('nav.home')}>
        <Logo />
        <span aria-hidden="true">{t('app.name')}</span>
      </Link>
      <button
        type="button"
        className="icon-button header__toggle"
        aria-expanded={navOpen}
        aria-controls={navId}
        aria-label={t(navOpen ? 'nav.close' : 'nav.open')}
        onClick={() => setNavOpen((open) => !open)}
      >
        <MenuIcon />
      </button>
      <div id={navId} className={`header__collapsible${navOpen ? ' is-open' : ''}`}>
        <nav aria-label={t('nav.label')} className="header__nav">
          <NavLink to="/dashboard">{t('nav.dashboard')}</NavLink>
          <NavLink to="/accountSettings">{t('nav.accountSettings')}</NavLink>
        </nav>
        {planStatus && <div className="header__plan">{planStatus}</div>}
      </div>
      <div className="header__actions">
        {bell}
        <ThemeToggle />
        <UserMenu />
      </div>
    </header>
  );
}
