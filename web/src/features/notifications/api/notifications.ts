import { api, type ApiExtra } from '../../../lib/api';
import type { AcknowledgeAnswer, AcknowledgeRequest, NotificationList, SuccessAnswer } from '@kora/contracts';
import { addNotification, isNotification, markReadIn } from '../model/notifications';

const LIST = { type: 'Notification' as const, id: 'LIST' };

export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getNotifications: build.query<NotificationList, void>({
      query: () => '/notifications?type=PUSH',
      transformResponse: (answer: Partial<NotificationList>) => {
        const notifications = answer.notifications ?? [];
        return {
          notifications,
          unreadCount: answer.unreadCount ?? notifications.filter((item) => item.status === 'SENT').length,
        };
      },
      providesTags: (result) => [
        ...(result?.notifications ?? []).map((item) => ({ type: 'Notification' as const, id: item.id })),
        LIST,
      ],
      /** The socket feed: `notification.created` joins the list live; `resync` refetches it. */
      async onCacheEntryAdded(_arg, { updateCachedData, cacheDataLoaded, cacheEntryRemoved, dispatch, extra }) {
        const { realtime } = extra as ApiExtra;
        if (!realtime) return;
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const offCreated = realtime.on('notification.created', (payload) => {
          if (isNotification(payload)) updateCachedData((draft) => addNotification(draft, payload));
        });
        const offResync = realtime.on('resync', () => {
          dispatch(notificationsApi.util.invalidateTags([LIST]));
        });
        await cacheEntryRemoved;
        offCreated();
        offResync();
      },
    }),
    markNotificationRead: build.mutation<SuccessAnswer, string>({
      query: (id) => ({ url: `/notifications/${encodeURIComponent(id)}/read`, method: 'PATCH' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          notificationsApi.util.updateQueryData('getNotifications', undefined, (draft) => markReadIn(draft, id)),
        );
        try {
          await queryFulfilled;
        } catch (error) {
          // Spec §8: a failed mark-as-read is only logged.
          console.warn('The notification could not be marked read', error);
          patch.undo();
        }
      },
      invalidatesTags: (_result, _error, id) => [{ type: 'Notification', id }, LIST],
    }),
    acknowledgeNotification: build.mutation<AcknowledgeAnswer, AcknowledgeRequest>({
      query: (body) => ({ url: '/notifications/acknowledge', method: 'POST', body }),
    }),
  }),
});

export const { useGetNotificationsQuery, useMarkNotificationReadMutation, useAcknowledgeNotificationMutation } =
  notificationsApi;
