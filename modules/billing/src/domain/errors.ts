import type { BillingErrorCode } from '@kora/contracts';
import { CodedError, type ErrorKind } from '@kora/kernel';

/** A refusal of the billing module: one class per `BILLING.*` code below, the client translates the code. */
export abstract class BillingError extends CodedError<BillingErrorCode> {}

// Credits and packs.

export class InsufficientCreditsError extends BillingError {
  readonly code = 'BILLING.INSUFFICIENT_CREDITS';
  readonly kind = 'payment_required';
  constructor() {
    super('Insufficient credits for this operation.');
  }
}

export class NoSubscriptionError extends BillingError {
  readonly code = 'BILLING.NO_SUBSCRIPTION';
  readonly kind = 'not_found';
  constructor() {
    super('You have no active pack.');
  }
}

export class PackNotFoundError extends BillingError {
  readonly code = 'BILLING.PACK_NOT_FOUND';
  readonly kind = 'not_found';
  constructor(message = 'You have no active pack with this id.') {
    super(message);
  }
}

export class PackNotRenewingError extends BillingError {
  readonly code = 'BILLING.PACK_NOT_RENEWING';
  readonly kind = 'conflict';
  constructor() {
    super('This pack was paid once and does not renew: there is no renewal to cancel.');
  }
}

/** The track's (or mix's) result to unlock is not made yet. */
export class UnlockNotReadyError extends BillingError {
  readonly code = 'BILLING.RESULT_NOT_READY';
  readonly kind = 'conflict';
  constructor() {
    super('The preview is not ready yet: nothing was spent.');
  }
}

export class AlreadyUnlockedError extends BillingError {
  readonly code = 'BILLING.ALREADY_UNLOCKED';
  readonly kind = 'conflict';
  constructor() {
    super('This result is already unlocked.');
  }
}

// Choosing what to pay for.

export class UnknownPlanError extends BillingError {
  readonly code = 'BILLING.UNKNOWN_PLAN';
  readonly kind = 'invalid';
  constructor() {
    super('This plan does not exist.');
  }
}

export class PlanNotPurchasableError extends BillingError {
  readonly code = 'BILLING.PLAN_NOT_PURCHASABLE';
  readonly kind = 'invalid';
  constructor(plan: string) {
    super(`${plan} cannot be bought as a pack.`);
  }
}

export class PlanMismatchError extends BillingError {
  readonly code = 'BILLING.PLAN_MISMATCH';
  readonly kind = 'invalid';
}

export class ServiceMismatchError extends BillingError {
  readonly code = 'BILLING.SERVICE_MISMATCH';
  readonly kind = 'invalid';
  constructor() {
    super('This track was not processed by that service.');
  }
}

export class CurrencyNotSupportedError extends BillingError {
  readonly code = 'BILLING.CURRENCY_NOT_SUPPORTED';
  readonly kind = 'invalid';
}

export class AmountMismatchError extends BillingError {
  readonly code = 'BILLING.AMOUNT_MISMATCH';
  readonly kind = 'invalid';
  constructor(expected: number, currency: string) {
    super('The amount does not match the price.', { expected, currency });
  }
}

// Payments.

export class PaymentNotFoundError extends BillingError {
  readonly code = 'BILLING.PAYMENT_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('Payment not found');
  }
}

/** A payment named to unlock a track that it was not made for. */
export class PaymentMismatchError extends BillingError {
  readonly code = 'BILLING.PAYMENT_MISMATCH';
  readonly kind = 'invalid';
  constructor() {
    super('This payment is not for this track.');
  }
}

/**
 * Not captured: to unlock with it, it needs paying first (402, with its status); to capture, PayPal has not captured
 * it yet (409).
 */
export class PaymentNotCapturedError extends BillingError {
  readonly code = 'BILLING.PAYMENT_NOT_CAPTURED';
  readonly kind: ErrorKind;
  constructor(status?: string | null) {
    super(
      status === undefined ? 'The payment is not captured yet.' : 'This payment is not complete.',
      status === undefined ? undefined : { status },
    );
    this.kind = status === undefined ? 'conflict' : 'payment_required';
  }
}

export class PaymentClosedError extends BillingError {
  readonly code = 'BILLING.PAYMENT_CLOSED';
  readonly kind = 'conflict';
  constructor(status: string | null) {
    super(`This payment is ${status}.`, { status });
  }
}

/** The provider declined the payment (`issue`, its reason); with `restart`, the buyer may choose another card. */
export class PaymentDeclinedError extends BillingError {
  readonly code = 'BILLING.PAYMENT_DECLINED';
  readonly kind = 'payment_required';
  constructor(issue: string, restart = false) {
    super(
      restart
        ? 'The card was declined. Please choose another card or payment method.'
        : 'The payment was declined. Please try another way to pay.',
      restart ? { issue, reason: issue, restart: true } : { issue, reason: issue },
    );
  }
}

export class PaymentNotApprovedError extends BillingError {
  readonly code = 'BILLING.PAYMENT_NOT_APPROVED';
  readonly kind = 'conflict';
  constructor(issue: string) {
    super('The payment has not been approved yet.', { issue });
  }
}

/** The provider took an amount, currency or order that is not this sale: kept for an operator, nothing granted. */
export class PaymentUnderReviewError extends BillingError {
  readonly code = 'BILLING.PAYMENT_UNDER_REVIEW';
  readonly kind = 'conflict';
  constructor() {
    super('Your payment was received but does not match the price: our team is checking it and will contact you.');
  }
}

export class AlreadyPaidError extends BillingError {
  readonly code = 'BILLING.ALREADY_PAID';
  readonly kind = 'conflict';
}

// Providers.

export class ProviderUnavailableError extends BillingError {
  readonly code = 'BILLING.PROVIDER_UNAVAILABLE';
  readonly kind = 'provider_failed';
  constructor() {
    super('The payment provider did not answer. Please try again in a moment.');
  }
}

export class ProviderNotOfferedError extends BillingError {
  readonly code = 'BILLING.PROVIDER_NOT_OFFERED';
  readonly kind = 'invalid';
  constructor(provider: string) {
    super(`${provider} is not offered on this server.`, { provider });
  }
}

/** A provider's callback whose signature does not verify. */
export class InvalidSignatureError extends BillingError {
  readonly code = 'BILLING.INVALID_SIGNATURE';
  readonly kind = 'unauthenticated';
  constructor() {
    super('The callback could not be verified.');
  }
}

// Refunds and anomalies (operators).

export class NotRefundableError extends BillingError {
  readonly code = 'BILLING.NOT_REFUNDABLE';
  readonly kind = 'conflict';
  constructor() {
    super('Only a paid payment can be refunded.');
  }
}

export class RefundExceedsCaptureError extends BillingError {
  readonly code = 'BILLING.REFUND_EXCEEDS_CAPTURE';
  readonly kind = 'conflict';
  constructor(details: { captured: unknown; refunded: unknown; refund: unknown }) {
    super('Refunds cannot give back more than the payment captured, nor in another currency.', details);
  }
}

export class NoAnomalyError extends BillingError {
  readonly code = 'BILLING.NO_ANOMALY';
  readonly kind = 'not_found';
  constructor() {
    super('This payment has no anomaly with this capture id.');
  }
}
