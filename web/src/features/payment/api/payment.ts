import type {
  CancelAnswer,
  CaptureAnswer,
  CurrentSubscription,
  CurrentSubscriptionAnswer,
  Intent,
  IntentRequest,
  PaymentsConfig,
  PaymentStatusAnswer,
  Plan,
  PreferencesAnswer,
  UnlockAnswer,
} from '@kora/contracts';
import { api, errorBody } from '../../../lib/api';
import { CURRENCIES, type Currency } from '@kora/contracts';

export type { Intent, IntentRequest, OrangeMoneyIntent, PayPalIntent } from '@kora/contracts';

export function planPrice(plan: Plan, currency: Currency): number | null {
  return { XOF: plan.priceXOF, USD: plan.priceUSD, EUR: plan.priceEUR }[currency] ?? null;
}

/**
 * The credits left per service: `remaining` of the current subscription (`GET /api/subscriptions/current`); none
 * without an active pack (its 404).
 */
export interface Credits {
  remaining: Partial<CurrentSubscription['remaining']>;
}

/** The currency saved in the account's preferences, null when the answer has none this client knows. */
function savedCurrency(answer: PreferencesAnswer): Currency | null {
  const currency: unknown = answer.preferences.currency;
  return CURRENCIES.find((code) => code === currency) ?? null;
}

/** A refusal's code (`BILLING.PAYMENT_DECLINED`...), for the error banner. */
export function failureCode(error: unknown): string | null {
  return errorBody(error)?.code ?? null;
}

const paymentApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPaymentsConfig: build.query<PaymentsConfig, void>({ query: () => '/payments/config' }),
    /**
     * The currency of the account's preferences (`GET /api/user/preferences`), the pay panel's first choice. The
     * account feature keeps its own copy of the preferences: this one is asked again on each mount (see PaymentUnlock),
     * so a currency saved in the settings meanwhile is the one found.
     */
    getPreferredCurrency: build.query<Currency | null, void>({
      query: () => '/user/preferences',
      transformResponse: savedCurrency,
      providesTags: [{ type: 'Preferences', id: 'ME' }],
    }),
    getPayPerTrack: build.query<Plan | null, string>({
      query: (service) => `/plans/payngo?service=${encodeURIComponent(service)}`,
      transformResponse: (answer: { plans?: Plan[] } | Plan[]) =>
        (Array.isArray(answer) ? answer : (answer.plans ?? []))[0] ?? null,
      providesTags: [{ type: 'Plan', id: 'PAYNGO' }],
    }),
    getCredits: build.query<Credits, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery(`/subscriptions/current?_=${Date.now()}`);
        if (result.error) {
          return result.error.status === 404 ? { data: { remaining: {} } } : { error: result.error };
        }
        return { data: { remaining: (result.data as CurrentSubscriptionAnswer).subscription.remaining } };
      },
      providesTags: [{ type: 'Subscription', id: 'CURRENT' }],
    }),
    createIntent: build.mutation<Intent, IntentRequest>({
      query: (body) => ({
        url: body.paymentType === 'PACK' ? '/subscriptions/subscribe' : '/payments/createIntent',
        method: 'POST',
        body,
      }),
    }),
    /** A payment's status; a failed one carries the provider's `reason` when it gave one (`INSUFFICIENT_BALANCE`). */
    paymentStatus: build.mutation<PaymentStatusAnswer, string>({
      query: (paymentIntentId) => ({ url: '/payments/status', method: 'POST', body: { paymentIntentId } }),
    }),
    capturePayPal: build.mutation<CaptureAnswer, string>({
      query: (orderId) => ({ url: `/payments/paypal/capture/${encodeURIComponent(orderId)}`, method: 'POST' }),
    }),
    /** The PayPal window closed without approval: the server asks PayPal, then cancels (409 ALREADY_PAID if paid). */
    cancelPayPal: build.mutation<CancelAnswer, string>({
      query: (orderId) => ({ url: `/payments/paypal/${encodeURIComponent(orderId)}/cancel`, method: 'POST' }),
    }),
    cancelOrangeMoney: build.mutation<CancelAnswer, { paymentId: string; trackId?: string }>({
      query: ({ paymentId, trackId }) => ({
        url: `/payments/orange-money/${encodeURIComponent(paymentId)}/cancel`,
        method: 'POST',
        body: trackId ? { trackId } : {},
      }),
    }),
    /** The track's status and master address, asked afresh on every poll after a payment (never cached). */
    trackStatus: build.mutation<{ status: string }, string>({
      query: (id) => ({ url: `/audio/track/${encodeURIComponent(id)}/status?_=${Date.now()}`, method: 'GET' }),
    }),
    trackMaster: build.mutation<
      { masterUrl: string | null; unlocked: boolean; stems?: Record<string, string> },
      string
    >({
      query: (id) => ({ url: `/audio/track/${encodeURIComponent(id)}?_=${Date.now()}`, method: 'GET' }),
    }),
    /** A mix session after its payment: unlocked once the payment is granted (its final mix then streams). */
    mixStatus: build.mutation<{ session: { status: string; unlocked: boolean } }, string>({
      query: (id) => ({ url: `/mixing/sessions/${encodeURIComponent(id)}?_=${Date.now()}`, method: 'GET' }),
    }),
    /** A credit (`{ credit: true }`) or a captured payment (`{ paymentId }`) unlocks the track's master. */
    unlockMaster: build.mutation<UnlockAnswer, { trackId: string; credit?: true; paymentId?: string }>({
      query: ({ trackId, ...body }) => ({
        url: `/audio/track/${encodeURIComponent(trackId)}/master`,
        method: 'POST',
        body,
      }),
      invalidatesTags: [
        { type: 'Subscription', id: 'CURRENT' },
        { type: 'Usage', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useGetPaymentsConfigQuery,
  useGetPreferredCurrencyQuery,
  useGetPayPerTrackQuery,
  useGetCreditsQuery,
  useCreateIntentMutation,
  usePaymentStatusMutation,
  useCapturePayPalMutation,
  useCancelOrangeMoneyMutation,
  useCancelPayPalMutation,
  useUnlockMasterMutation,
  useTrackStatusMutation,
  useTrackMasterMutation,
  useMixStatusMutation,
} = paymentApi;
export { paymentApi };
