import { useEffect, useRef } from 'react';
import { useAppSelector } from '../../../lib/hooks';
import { useGetNotificationsQuery } from '../api/notifications';

/** Poll interval while the socket is down (spec §9). */
export const NOTIFICATION_POLL_MS = 3000;

/** The notification list: live over the socket, polled every 3 s while the socket is down. */
export function useNotifications() {
  const connected = useAppSelector((state) => state.realtime.status === 'connected');
  const query = useGetNotificationsQuery(undefined, { pollingInterval: connected ? 0 : NOTIFICATION_POLL_MS });
  const wasConnected = useRef(connected);
  const { refetch, isUninitialized } = query;
  useEffect(() => {
    // Back online: one refetch covers whatever happened before the socket could replay it.
    if (connected && !wasConnected.current && !isUninitialized) void refetch();
    wasConnected.current = connected;
  }, [connected, refetch, isUninitialized]);
  return query;
}
