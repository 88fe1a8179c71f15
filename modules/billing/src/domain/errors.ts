import { CodedError, type ErrorKind } from '@kora/kernel';

/** A refusal of the billing module, with a stable `BILLING.*` code the client translates. */
export class BillingError extends CodedError {
  constructor(
    readonly code: string,
    message: string,
    readonly kind: ErrorKind = 'invalid',
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

export const insufficientCredits = (): BillingError =>
  new BillingError('BILLING.INSUFFICIENT_CREDITS', 'Insufficient credits for this operation.', 'payment_required');
export const paymentNotFound = (): BillingError =>
  new BillingError('BILLING.PAYMENT_NOT_FOUND', 'Payment not found', 'not_found');
export const noSubscription = (): BillingError =>
  new BillingError('BILLING.NO_SUBSCRIPTION', 'You have no active pack.', 'not_found');
export const packNotFound = (): BillingError =>
  new BillingError('BILLING.PACK_NOT_FOUND', 'You have no active pack with this id.', 'not_found');
export const packNotRenewing = (): BillingError =>
  new BillingError(
    'BILLING.PACK_NOT_RENEWING',
    'This pack was paid once and does not renew: there is no renewal to cancel.',
    'conflict',
  );
export const providerUnavailable = (): BillingError =>
  new BillingError(
    'BILLING.PROVIDER_UNAVAILABLE',
    'The payment provider did not answer. Please try again in a moment.',
    'provider_failed',
  );
export const providerNotOffered = (provider: string): BillingError =>
  new BillingError('BILLING.PROVIDER_NOT_OFFERED', `${provider} is not offered on this server.`, 'invalid', {
    provider,
  });
