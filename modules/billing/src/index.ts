export { BillingModule } from './billing.module';
export type { BillingOptions } from './application/billing-options';
export { loadCatalogue, BUILT_IN_CATALOGUE } from './application/catalogue/catalogue.service';
export { PaymentSandbox, type SandboxKnobs } from './providers/sandbox/payment-sandbox';
export { PaymentReconciler } from './application/payments/reconciler';
export {
  OrangeMoneyGateway,
  PayPalGateway,
  ProviderRefusal,
  ProviderUnavailable,
  type OrangeMoneyQrCode,
  type OrangeMoneyTransaction,
  type PayPalOrder,
  type PayPalWebhookEvent,
} from './providers/port';
export {
  AUDIT_EVENT_TYPES,
  LedgerAudit,
  type AuditOptions,
  type AuditReport,
  type AuditViolation,
  type BalanceRow,
  type EventRef,
  type RevenueRow,
} from './audit/ledger-audit';
export { PayPalRestGateway, PAYPAL_API_BASES, type PayPalRestOptions } from './providers/rest/paypal-rest';
export {
  ORANGE_MONEY_SANDBOX_BASE,
  OrangeMoneyRestGateway,
  type OrangeMoneyRestOptions,
} from './providers/rest/orange-money-rest';
export { CreditExpiry } from './application/credits/credit-expiry';
export { Refunds, type RefundOutcome } from './application/refund/refunds';
export { Anomalies, type AnomalyOutcome } from './application/refund/anomalies';
export { BillingError } from './domain/errors';
