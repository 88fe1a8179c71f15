/**
 * A declined payment's reason, as the provider gave it (the server's `reason`: the status answer's, or the
 * `details.reason` of a `BILLING.PAYMENT_DECLINED` refusal), turned into what the payer can do about it. Reasons the
 * client does not know read as a decline with nothing charged.
 */
const REASONS: Readonly<Record<string, string>> = {
  // Orange Money: the wallet's balance is too low.
  INSUFFICIENT_BALANCE: 'insufficientBalance',
  INSUFFICIENT_FUNDS: 'insufficientBalance',
  // PayPal: the card or the funding source was refused.
  INSTRUMENT_DECLINED: 'cardDeclined',
  CAPTURE_DECLINED: 'cardDeclined',
  CAPTURE_DENIED: 'cardDeclined',
  TRANSACTION_REFUSED: 'cardDeclined',
  CARD_EXPIRED: 'cardExpired',
  PAYER_CANNOT_PAY: 'accountCannotPay',
  PAYER_ACCOUNT_RESTRICTED: 'accountCannotPay',
  PAYER_ACCOUNT_LOCKED_OR_CLOSED: 'accountCannotPay',
  MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED: 'tooManyAttempts',
};

/** The message key (payment namespace) for a decline's reason. */
export function declineKey(reason: unknown): string {
  const known = typeof reason === 'string' && Object.hasOwn(REASONS, reason) ? REASONS[reason] : 'other';
  return `payment:declines.${known}`;
}
