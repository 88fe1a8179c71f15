import { useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { BellIcon } from '../../../components/icons';
import { formatDateTime, formatRelativeTime } from '../../../lib/format';
import { useDismiss } from '../../../lib/useDismiss';
import { useNow } from '../../../lib/useNow';
import { notificationLink, textOf } from '../model/notifications';
import { useMarkNotificationReadMutation } from '../api/notifications';
import { useNotifications } from '../hooks/useNotifications';

/**
 * The bell: unread count, and a list of notifications (title, message, relative time, unread dot). Clicking one marks
 * it read and, for a track's notification, opens that track in the studio.
 */
export function NotificationBell() {
  const { t, i18n } = useTranslation();
  const { data, isError } = useNotifications();
  const [markRead] = useMarkNotificationReadMutation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const headingId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, container, button, close);
  const now = useNow();
  const unread = data?.unreadCount ?? 0;
  const items = data?.notifications ?? [];

  return (
    <div className="bell" ref={container}>
      <button
        ref={button}
        type="button"
        className="icon-button bell__button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell')}
        onClick={() => setOpen((value) => !value)}
      >
        <BellIcon />
        {unread > 0 && (
          <span className="bell__count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      <div id={panelId} className="dropdown bell__panel" role="region" aria-labelledby={headingId} hidden={!open}>
        <h2 id={headingId} className="bell__title">
          {t('notifications.title')}
        </h2>
        {isError && items.length === 0 ? (
          <p className="muted">{t('notifications.loadError')}</p>
        ) : items.length === 0 ? (
          <p className="muted">{t('notifications.empty')}</p>
        ) : (
          <ul className="bell__list">
            {items.map((item) => {
              const text = textOf(item, i18n.language);
              const isUnread = item.status === 'SENT';
              return (
                <li key={item.id}>
                  <button
                    type="button"
                    className={`notification${isUnread ? ' notification--unread' : ''}`}
                    onClick={() => {
                      if (isUnread) void markRead(item.id);
                      const link = notificationLink(item);
                      if (link) {
                        setOpen(false);
                        void navigate(link);
                      }
                    }}
                  >
                    {isUnread && <span className="notification__dot" aria-hidden="true" />}
                    <span className="notification__body">
                      <span className="notification__title">
                        {isUnread && <span className="visually-hidden">{t('notifications.unread')} </span>}
                        {text.title}
                      </span>
                      <span className="notification__message">{text.message}</span>
                      <time
                        className="notification__time"
                        dateTime={item.createdAt}
                        title={formatDateTime(item.createdAt, i18n.language)}
                      >
                        {formatRelativeTime(item.createdAt, now, i18n.language)}
                      </time>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
