import { useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Avatar } from '../../../components/Avatar';
import { useSession } from '../../../lib/session/SessionProvider';
import { useDismiss } from '../../../lib/useDismiss';

/** The user dropdown: picture, e-mail, account settings and logout, as a keyboard-operable menu. */
export function UserMenu() {
  const { t } = useTranslation();
  const { user, logout, logoutEverywhere } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, container, button, close);

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const openMenu = (focus: 'first' | 'last') => {
    setOpen(true);
    requestAnimationFrame(() => {
      const list = items();
      (focus === 'first' ? list[0] : list[list.length - 1])?.focus();
    });
  };
  const onMenuKey = (event: React.KeyboardEvent) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Tab') close();
  };
  const label = user?.name ?? user?.email ?? '';

  const entries = [
    { label: t('nav.accountSettings'), run: () => navigate('/accountSettings?section=general') },
    { label: t('userMenu.logout'), run: () => void logout() },
    { label: t('userMenu.logoutEverywhere'), run: () => void logoutEverywhere() },
  ];

  return (
    <div className="user-menu" ref={container}>
      <button
        ref={button}
        type="button"
        className="user-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('userMenu.open')}
        onClick={() => (open ? close() : openMenu('first'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            openMenu('first');
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            openMenu('last');
          }
        }}
      >
        <Avatar picture={user?.picture ?? null} name={label} size={34} />
      </button>
      {open && (
        <div className="dropdown user-menu__panel">
          <div className="user-menu__identity">
            <Avatar picture={user?.picture ?? null} name={label} size={40} />
            <div>
              {user?.name && <p className="user-menu__name">{user.name}</p>}
              <p className="user-menu__email">{user?.email ?? ''}</p>
            </div>
          </div>
          <ul id={menuId} ref={menu} role="menu" aria-label={t('userMenu.label')} onKeyDown={onMenuKey}>
            {entries.map((item) => (
              <li key={item.label} role="none">
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  onClick={() => {
                    close();
                    item.run();
                  }}
                >
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
