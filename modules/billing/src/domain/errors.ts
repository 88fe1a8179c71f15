import { CodedError } from '@kora/kernel';

/** A refusal of the billing module, with a stable `BILLING.*` code the client translates. */
export class BillingError extends CodedError {
  readonly status: number;
  constructor(
    readonly code: string,
    message: string,
    status = 400,
    details?: Record<string, unknown>,
  ) {
    super(message, details);
    this.status = status;
  }
}

export const insufficientCredits = (): BillingError =>
  new BillingError('BILLING.INSUFFICIENT_CREDITS', 'Insufficient credits for this operation.', 402);
export const paymentNotFound = (): BillingError =>
  new BillingError('BILLING.PAYMENT_NOT_FOUND', 'Payment not found', 404);
export const noSubscription = (): BillingError =>
  new BillingError('BILLING.NO_SUBSCRIPTION', 'You have no active pack.', 404);
export const providerUnavailable = (): BillingError =>
  new BillingError(
    'BILLING.PROVIDER_UNAVAILABLE',
    'The payment provider did not answer. Please try again in a moment.',
    502,
  );
