import type { BillingService } from '@kora/contracts';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';
import { type Currency, formatMoney } from '../../../lib/format';
import { useAppDispatch } from '../../../lib/hooks';
import { paymentApi } from '../api/payment';
import { ErrorBanner } from './ErrorBanner';
import { OrangeMoneyModal } from './OrangeMoneyModal';
import { PaymentMethods } from './PaymentMethods';
import { PAYMENT_LIMITS } from '../model/rules';
import { type CheckoutOrder, useCheckout } from '../hooks/useCheckout';
import './payment.css';

export interface PackPurchaseProps {
  plan: { id: string; name: string; serviceType?: BillingService };
  billingCycle: 'MONTHLY' | 'YEARLY';
  currency: Currency;
  /** The price shown on the card (the server prices the purchase itself). */
  amount: number;
  /** The pack is bought: the plans section refreshes packs and subscription. */
  onPurchased(): void;
  onClose(): void;
}

/**
 * Buying a pack (spec §4): the same payment methods as a single track, in a side panel; after the success the panel
 * waits 2 s, has the subscription refreshed, then closes.
 */
export function PackPurchase({ plan, billingCycle, currency, amount, onPurchased, onClose }: PackPurchaseProps) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const checkout = useCheckout(async () => {
    await new Promise((resolve) => setTimeout(resolve, PAYMENT_LIMITS.panelCloseDelayMs));
    dispatch(
      paymentApi.util.invalidateTags([
        { type: 'Subscription', id: 'CURRENT' },
        { type: 'Payment', id: 'LIST' },
      ]),
    );
    onPurchased();
    onClose();
  });
  const order: CheckoutOrder = {
    paymentType: 'PACK',
    planId: plan.id,
    billingCycle,
    currency,
    ...(plan.serviceType ? { service: plan.serviceType } : {}),
  };
  return (
    <Modal
      title={t('payment:pack.title', { name: plan.name })}
      onClose={() => (checkout.busy ? undefined : onClose())}
      className="side-panel"
    >
      <p>
        {t(billingCycle === 'YEARLY' ? 'payment:pack.yearly' : 'payment:pack.monthly', {
          price: formatMoney(amount, currency, i18n.language),
        })}
      </p>
      <ErrorBanner error={checkout.error} onClose={checkout.dismissError} />
      <PaymentMethods checkout={checkout} order={order} amount={amount} />
      <div className="modal__actions">
        <button type="button" className="button button--ghost" disabled={checkout.busy} onClick={onClose}>
          {t('payment:close')}
        </button>
      </div>
      {checkout.orange && (
        <OrangeMoneyModal intent={checkout.orange} onPaid={checkout.orangePaid} onClosed={checkout.orangeClosed} />
      )}
    </Modal>
  );
}
