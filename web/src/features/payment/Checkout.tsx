export { ErrorBanner } from './ErrorBanner';
export { OrangeMoneyModal } from './OrangeMoneyModal';
export { PaymentMethods } from './PaymentMethods';
export { type Checkout, type CheckoutOrder, type CheckoutPhase, type OrangeOutcome, useCheckout } from './useCheckout';
