import { api, type ApiExtra, errorStatus } from '../../../lib/api';
import { PACK_SERVICES, type PackService, type Plan, type PlansPage } from '@kora/contracts';
import type { Currency } from '../../../lib/format';

/** The services packs exist for (the contracts' PackService). */
export type ServiceType = PackService;
export { PACK_SERVICES };

export interface PackStatus {
  limit?: number;
  used?: number;
  remaining?: number;
  startDate?: string | null;
  endDate?: string | null;
}

/** One bought pack (`activePacks` of `/api/subscriptions/current`). */
export interface ActivePack {
  id: string;
  planId: string;
  planName: string;
  serviceType: ServiceType;
  billingCycle: 'MONTHLY' | 'YEARLY';
  limit: number;
  used: number;
  remaining: number;
  startDate: string;
  endDate: string;
  /** Whether it renews by itself; a pack paid by one order (PayPal, Orange Money) does not. */
  renews?: boolean;
  /** A pack that renews, told not to. */
  renewalCancelled?: boolean;
}

export interface CurrentSubscription {
  plan?: { name?: string; unlimitedPreview?: boolean } | null;
  status?: string;
  totalCredits?: number;
  creditsUsed?: number;
  remainingCredits?: number;
  /** Per service: the credits left (totalCredits - creditsUsed of its packs). */
  remaining?: Partial<Record<ServiceType | 'AI_MIXING', number>>;
  endDate?: string | null;
  /** Per service: total, used, remaining and dates over its packs. */
  services?: Partial<Record<ServiceType, PackStatus & { total?: number }>>;
  activePacks?: ActivePack[];
  /** Older servers: per service limits. */
  packs?: Partial<Record<ServiceType, PackStatus>>;
}

export interface UsageEntry {
  id: string;
  date: string;
  trackName: string;
  serviceType: string;
  trackDuration: number;
  creditsUsed: number;
}

export interface PaymentRecord {
  id: string;
  date: string;
  amount: number;
  currency: Currency;
  payment_method: string;
  planName?: string;
  serviceType?: string;
  type?: string;
  /** pending, paid, failed or refunded: a cancelled or expired payment is counted as failed here... */
  status: string;
  /** ...and named here (pending, paid, failed, cancelled, expired, refunded), on servers that send it. */
  detailedStatus?: string;
}

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
            const body = result.data as { subscription?: CurrentSubscription } & CurrentSubscription;
            return { data: body.subscription ?? body };
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
    cancelSubscription: build.mutation<{ success: boolean }, string>({
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
      transformResponse: (answer: UsageEntry[] | { history?: UsageEntry[] }) =>
        Array.isArray(answer) ? answer : (answer.history ?? []),
      providesTags: [{ type: 'Usage', id: 'LIST' }],
    }),
    /** Every page of the history, 100 per request (spec §7); filtered and sorted on the client. */
    getPaymentHistory: build.query<PaymentRecord[], void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const all: PaymentRecord[] = [];
        for (let page = 1; page <= 100; page += 1) {
          const result = await baseQuery(`/payments/history?page=${page}&limit=${PAYMENTS_PER_REQUEST}`);
          if (result.error) return { error: result.error };
          const body = result.data as { payments?: PaymentRecord[]; pagination?: { total?: number } };
          const payments = body.payments ?? [];
          all.push(...payments);
          if (payments.length < PAYMENTS_PER_REQUEST || all.length >= (body.pagination?.total ?? 0)) break;
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
