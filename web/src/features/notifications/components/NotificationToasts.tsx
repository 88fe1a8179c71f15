import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { STORAGE_KEYS } from '../../../lib/session/storage';
import { toastsAtOnce } from '../../../lib/toast';
import { useWindowWidth } from '../../../lib/useWindowWidth';
import type { AppNotification } from '@kora/contracts';
import { notificationLink, textOf } from '../model/notifications';
import { useMarkNotificationReadMutation } from '../api/notifications';
import { useNotifications } from '../hooks/useNotifications';

/** Spec §9: each toast stays 4 s; toasts appear 1 s apart. */
export const NOTIFICATION_TOAST_MS = 4000;
export const NOTIFICATION_STAGGER_MS = 1000;
/** Unread notifications older than the session's first list are many at times: only the newest few are toasted. */
export const INITIAL_BACKLOG = 3;

function loadShown(): Set<string> {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEYS.toastedNotifications);
    return new Set(raw ? (JSON.parse(raw) as string[]) : []);
  } catch {
    return new Set();
  }
}

function saveShown(ids: Set<string>): void {
  sessionStorage.setItem(STORAGE_KEYS.toastedNotifications, JSON.stringify([...ids].slice(-200)));
}

function NotificationToast({ notification, onDone }: { notification: AppNotification; onDone(read: boolean): void }) {
  const { t, i18n } = useTranslation();
  const [paused, setPaused] = useState(false);
  const remaining = useRef(NOTIFICATION_TOAST_MS);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => onDoneRef.current(false), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [paused]);
  const navigate = useNavigate();
  const text = textOf(notification, i18n.language);
  const link = notificationLink(notification);
  return (
    <div
      className={`toast toast--info notification-toast${paused ? ' is-paused' : ''}`}
      role="status"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {link ? (
        // A track's notification opens the track (and counts as read, as closing it does).
        <button
          type="button"
          className="toast__content toast__open"
          onClick={() => {
            void navigate(link);
            onDoneRef.current(true);
          }}
        >
          <span className="toast__title">{text.title}</span>
          <span className="toast__message">{text.message}</span>
        </button>
      ) : (
        <div className="toast__content">
          <p className="toast__title">{text.title}</p>
          <p className="toast__message">{text.message}</p>
        </div>
      )}
      <button
        type="button"
        className="icon-button toast__close"
        aria-label={t('notifications.closeToast', { title: text.title })}
        onClick={() => onDoneRef.current(true)}
      >
        <span aria-hidden="true">×</span>
      </button>
      <span
        className="toast__progress"
        aria-hidden="true"
        style={{ animationDuration: `${NOTIFICATION_TOAST_MS}ms` }}
      />
    </div>
  );
}

/**
 * New unread notifications as info toasts, once each (remembered for the browser session), one second apart;
 * each closes after 4 s, and closing it by hand marks it read. A track's notification opens that track when clicked.
 * On a phone or a tablet no more than two show at once: the next waits for one to close.
 */
export function NotificationToasts() {
  const { data } = useNotifications();
  const [markRead] = useMarkNotificationReadMutation();
  const [queue, setQueue] = useState<Array<{ item: AppNotification; at: number }>>([]);
  const [visible, setVisible] = useState<AppNotification[]>([]);
  const shown = useRef<Set<string> | null>(null);
  const nextSlot = useRef(0);
  const firstList = useRef(true);
  const atOnce = toastsAtOnce(useWindowWidth());

  useEffect(() => {
    if (!data) return;
    shown.current ??= loadShown();
    const seen = shown.current;
    // Oldest first, so they appear in the order they happened.
    const fresh = data.notifications
      .filter((item) => item.status === 'SENT' && !seen.has(item.id))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const toShow = firstList.current ? fresh.slice(-INITIAL_BACKLOG) : fresh;
    firstList.current = false;
    if (fresh.length === 0) return;
    for (const item of fresh) seen.add(item.id);
    saveShown(seen);
    const now = Date.now();
    const slots = toShow.map((item) => {
      const at = Math.max(now, nextSlot.current);
      nextSlot.current = at + NOTIFICATION_STAGGER_MS;
      return { item, at };
    });
    setQueue((current) => [...current, ...slots]);
  }, [data]);

  useEffect(() => {
    const [head] = queue;
    if (!head || visible.length >= atOnce) return;
    const timer = setTimeout(
      () => {
        setQueue((current) => current.slice(1));
        setVisible((list) => [...list, head.item]);
      },
      Math.max(0, head.at - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [queue, visible.length, atOnce]);

  return (
    <div className="toaster toaster--top" aria-live="polite">
      {visible.map((item) => (
        <NotificationToast
          key={item.id}
          notification={item}
          onDone={(read) => {
            setVisible((list) => list.filter((other) => other.id !== item.id));
            if (read) void markRead(item.id);
          }}
        />
      ))}
    </div>
  );
}
