import { api, type ApiExtra, errorStatus } from '../../../lib/api';
import {
  type ActivePack,
  type CancelRenewalAnswer,
  type CurrentSubscription,
  type CurrentSubscriptionAnswer,
  PACK_SERVICES,
  type PackService,
  type PaymentHistoryAnswer,
  type PaymentRecord,
  type Plan,
  type PlansPage,
  type UsageEntry,
  type UsageHistoryAnswer,
} from '@kora/contracts';

/** The services packs exist for (the contracts' PackService). */
export type ServiceType = PackService;
export { PACK_SERVICES };
export type { ActivePack, CurrentSubscription, PaymentRecord, UsageEntry };

/** `{plans}` or a bare list, sorted by price in XOF (spec §7). */
function sortPlans(answer: Plan[] | Partial<PlansPage>): Plan[] {
  const plans = Array.isArray(answer) ? answer : (answer.plans ?? []);
  return [...plans].sort((a, b) => (a.priceXOF ?? a.price) - (b.priceXOF ?? b.price));
}

export const PAYMENTS_PER_REQUEST = 100;
export const SUBSCRIPTION_RETRIES = 3;
export const SUBSCRIPTION_RETRY_DELAY_MS = 2000;

const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The current subscription; a 404 means no plan (data null), not an error. */
    getCurrentSubscription: build.query<CurrentSubscription | null, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        // Up to 3 retries 2 s apart on a failure (spec §9); a 404 is an answer: no plan.
        for (let attempt = 0; ; attempt += 1) {
          const result = await baseQuery(`/subscriptions/current?_=${Date.now()}`);
          if (!result.error) {
            return { data: (result.data as CurrentSubscriptionAnswer).subscription };
          }
          const status = errorStatus(result.error);
          if (status === 404) return { data: null };
          if (status === 401 || attempt >= SUBSCRIPTION_RETRIES) return { error: result.error };
          await new Promise((resolve) => setTimeout(resolve, SUBSCRIPTION_RETRY_DELAY_MS));
        }
      },
      providesTags: [{ type: 'Subscription', id: 'CURRENT' }],
      /** Live: a `credits.changed` message (a pack bought, a credit spent, expired or revoked) refreshes it. */
      async onCacheEntryAdded(_arg, { dispatch, cacheDataLoaded, cacheEntryRemoved, extra }) {
        const { realtime } = extra as ApiExtra;
        if (!realtime) return;
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const off = realtime.on('credits.changed', () => {
          dispatch(
            billingApi.util.invalidateTags([
              { type: 'Subscription', id: 'CURRENT' },
              { type: 'Usage', id: 'LIST' },
            ]),
          );
        });
        await cacheEntryRemoved;
        off();
      },
    }),
    /** Stops the renewal of one pack (by id); its credits stay usable until its end date. */
    cancelSubscription: build.mutation<CancelRenewalAnswer, string>({
      query: (packId) => ({ url: '/subscriptions/cancel', method: 'POST', body: { packId } }),
      invalidatesTags: [{ type: 'Subscription', id: 'CURRENT' }],
    }),
    getPlans: build.query<Plan[], void>({
      query: () => '/plans',
      transformResponse: sortPlans,
      providesTags: [{ type: 'Plan', id: 'LIST' }],
    }),
    /** Pay Per Track: one result's price per service (spec: shown among the plans, not bought as a pack). */
    getPayPerTrackPlans: build.query<Plan[], void>({
      query: () => '/plans/payngo',
      transformResponse: sortPlans,
      providesTags: [{ type: 'Plan', id: 'PAYNGO' }],
    }),
    getUsageHistory: build.query<UsageEntry[], void>({
      query: () => '/subscriptions/usage-history',
      transformResponse: (answer: UsageHistoryAnswer) => answer.history,
      providesTags: [{ type: 'Usage', id: 'LIST' }],
    }),
    /** Every page of the history, 100 per request (spec §7); filtered and sorted on the client. */
    getPaymentHistory: build.query<PaymentRecord[], void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const all: PaymentRecord[] = [];
        for (let page = 1; page <= 100; page += 1) {
          const result = await baseQuery(`/payments/history?page=${page}&limit=${PAYMENTS_PER_REQUEST}`);
          if (result.error) return { error: result.error };
          const { payments, pagination } = result.data as PaymentHistoryAnswer;
          all.push(...payments);
          if (payments.length < PAYMENTS_PER_REQUEST || all.length >= pagination.total) break;
        }
        return { data: all };
      },
      providesTags: [{ type: 'Payment', id: 'LIST' }],
    }),
  }),
});

export const {
  useGetCurrentSubscriptionQuery,
  useCancelSubscriptionMutation,
  useGetPlansQuery,
  useGetPayPerTrackPlansQuery,
  useGetUsageHistoryQuery,
  useGetPaymentHistoryQuery,
} = billingApi;
