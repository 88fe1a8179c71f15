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
  };
  /** How often packs past their end date are looked for (`CreditsExpired`); 0: only at start. Default 60 s. */
  readonly expiryIntervalMs?: number;
  /** How long a provider call may take before it counts as unavailable. */
  readonly providerTimeoutMs?: number;
  /** Tests only (NODE_ENV=test): the process exits right after the provider's capture, before our append. */
  readonly crashAfterCapture?: boolean;
}
