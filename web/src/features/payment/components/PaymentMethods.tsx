import type { PaymentsConfig } from '@kora/contracts';
import { useTranslation } from 'react-i18next';
import { type Currency, formatMoney } from '../../../lib/format';
import { useGetPaymentsConfigQuery } from '../api/payment';
import { PayPalButtons } from './PayPalButtons';
import { availableProviders, clock, type Provider } from '../model/rules';
import type { Checkout, CheckoutOrder } from '../hooks/useCheckout';

interface PaymentMethodsProps {
  checkout: Checkout;
  order: CheckoutOrder;
  amount: number | null;
  disabled?: boolean;
}

/** The providers this server offers (all while its configuration is loading: the server refuses the others). */
function offeredProviders(config: PaymentsConfig | undefined): Provider[] {
  if (!config) return ['PAYPAL', 'ORANGE_MONEY'];
  const offered: Provider[] = [];
  if (config.paypal.mode !== 'off') offered.push('PAYPAL');
  if (config.orangeMoney.mode !== 'off') offered.push('ORANGE_MONEY');
  return offered;
}

/** Whether the currency's only provider is one this server does not offer. */
function notOffered(currency: Currency, config: PaymentsConfig | undefined): boolean {
  return !offeredProviders(config).includes(currency === 'XOF' ? 'ORANGE_MONEY' : 'PAYPAL');
}

/** The providers for the currency (spec §5): Orange Money in XOF out of its cooldown, PayPal otherwise. */
export function PaymentMethods({ checkout, order, amount, disabled = false }: PaymentMethodsProps) {
  const { t, i18n } = useTranslation();
  const config = useGetPaymentsConfigQuery();
  const providers = availableProviders(order.currency, checkout.cooldown, offeredProviders(config.data));
  const price = amount === null ? null : formatMoney(amount, order.currency, i18n.language);
  const off = disabled || checkout.busy || amount === null;
  return (
    <div className="payment-methods">
      {order.currency === 'XOF' && checkout.cooldown > 0 && (
        <p className="payment-methods__cooldown" role="status">
          {t('payment:orange.cooldown', { time: clock(checkout.cooldown) })}
        </p>
      )}
      {notOffered(order.currency, config.data) && (
        <p className="payment-methods__none" role="status">
          {t(order.currency === 'XOF' ? 'payment:notOffered.xof' : 'payment:notOffered.paypal')}
        </p>
      )}
      {providers.includes('ORANGE_MONEY') && (
        <button
          type="button"
          className="button payment-methods__orange"
          disabled={off}
          onClick={() => void checkout.payWithOrangeMoney(order)}
        >
          {t('payment:orange.pay', { price })}
        </button>
      )}
      {providers.includes('PAYPAL') &&
        (config.data?.paypal.mode === 'live' ? (
          <PayPalButtons
            clientId={config.data.paypal.clientId}
            currency={order.currency}
            disabled={off}
            checkout={checkout}
            order={order}
          />
        ) : (
          <button
            type="button"
            className="button payment-methods__paypal"
            disabled={off || config.isLoading}
            onClick={() => void checkout.payWithPayPalPopup(order)}
          >
            {t('payment:paypal.pay', { price })}
          </button>
        ))}
      {checkout.phase === 'paypal' && (
        <p className="muted" role="status">
          {t('payment:paypal.waiting')}
        </p>
      )}
      {checkout.phase === 'capturing' && (
        <p className="muted" role="status">
          {t('payment:paypal.capturing')}
        </p>
      )}
      {checkout.phase === 'paid' && (
        <p className="payment-success" role="status">
          {t('payment:success')}
        </p>
      )}
    </div>
  );
}
