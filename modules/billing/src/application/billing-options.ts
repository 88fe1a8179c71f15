export const BILLING_OPTIONS = Symbol.for('kora.billing.options');

export interface BillingOptions {
  /** The address users and providers reach (approval pages, QR links, callbacks). */
  readonly publicUrl: string;
  /** Signs the sandbox's callbacks (persistent, shared by replicas). */
  readonly sandboxSecret: Buffer;
  /** A catalogue file replacing the built-in one (`BILLING_CATALOGUE`). */
  readonly cataloguePath?: string;
  /** How often the reconciler asks the providers about pending payments; 0: only at start. */
  readonly reconcileIntervalMs: number;
  /** How old a pending payment must be before the reconciler asks about it. */
  readonly reconcileMinAgeMs: number;
  /** Seconds an Orange Money QR code stays payable. */
  readonly orangeMoneyValidity: number;
  /** Runs the reconciler and the reactions (off on API replicas beside a worker). */
  readonly processors: boolean;
  /**
   * Providers not offered at all (`PAYPAL=off`, `ORANGE_MONEY=off`): no checkout, no callbacks. The built-in sandbox
   * serves the others only when none is live (the app's configuration refuses a sandbox beside a live provider).
   */
  readonly off?: ReadonlyArray<'PAYPAL' | 'ORANGE_MONEY'>;
  /**
   * Whether a request (its `Authorization` header) may turn the sandbox's knobs: everyone on a development machine or
   * a test run (`SANDBOX_KNOBS=on`), otherwise the operators' token. Absent: nobody.
   */
  readonly sandboxKnobs?: (authorization: string | undefined) => boolean;
  /** Where payment anomalies are mailed (`BILLING_OPERATOR_EMAIL`); they are logged as errors in any case. */
  readonly operatorEmail?: string;
  /** PayPal over REST (`PAYPAL_*`); absent: the built-in sandbox. */
  readonly paypal?: {
    readonly clientId: string;
    readonly clientSecret: string;
    readonly apiBase: string;
    readonly webhookId?: string;
  };
  /** Orange Money (Sonatel) over REST (`ORANGE_MONEY_*`); absent: the built-in sandbox. */
  readonly orangeMoney?: {
    readonly clientId: string;
    readonly clientSecret: string;
    readonly apiBase: string;
    readonly merchantCode: string;
    readonly callbackApiKey: string;
    readonly callbackAuth?: 'basic' | 'x-api-key';
    readonly callbackHmacSecret?: string;
  };
  /** How often packs past their end date are looked for (`CreditsExpired`); 0: only at start. Default 60 s. */
  readonly expiryIntervalMs?: number;
  /** How long a provider call may take before it counts as unavailable. */
  readonly providerTimeoutMs?: number;
  /** Tests only (NODE_ENV=test): the process exits right after the provider's capture, before our append. */
  readonly crashAfterCapture?: boolean;
}

/** Whether a provider is offered, and how: its real API, the built-in sandbox, or not at all. */
export function providerMode(options: BillingOptions, provider: 'PAYPAL' | 'ORANGE_MONEY'): 'live' | 'sandbox' | 'off' {
  if (options.off?.includes(provider)) return 'off';
  if (provider === 'PAYPAL' ? options.paypal : options.orangeMoney) return 'live';
  // A sandbox beside a live provider would give away what the live one sells: never (the configuration refuses it).
  return options.paypal || options.orangeMoney ? 'off' : 'sandbox';
}
