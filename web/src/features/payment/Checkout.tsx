import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { type Currency, formatMoney } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { type Intent, type PaymentsConfig, useGetPaymentsConfigQuery, usePaymentStatusMutation } from './api';
import { loadPayPalSdk, type PayPalNamespace } from './paypalSdk';
import { availableProviders, clock, cooldownRemaining, PAYMENT_LIMITS, type Provider } from './rules';
import type { Checkout, CheckoutOrder, OrangeOutcome } from './useCheckout';

export { type Checkout, type CheckoutOrder, type CheckoutPhase, type OrangeOutcome, useCheckout } from './useCheckout';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The sticky error banner, with its close button (spec §2). */
export function ErrorBanner({ error, onClose }: { error: string | null; onClose(): void }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <div className="payment-banner payment-banner--error" role="alert">
      <p>{t(error, { time: clock(cooldownRemaining(localStorage, Date.now())) })}</p>
      <button type="button" className="icon-button" aria-label={t('payment:close')} onClick={onClose}>
        ×
      </button>
    </div>
  );
}

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

/** PayPal's own buttons (the real PayPal): the SDK with the spec's options, rendered once per currency. */
function PayPalButtons(props: {
  clientId: string;
  currency: Currency;
  disabled: boolean;
  checkout: Checkout;
  order: CheckoutOrder;
}) {
  const { t } = useTranslation();
  const { clientId, currency, checkout, order } = props;
  const container = useRef<HTMLDivElement>(null);
  const latest = useRef({ checkout, order });
  latest.current = { checkout, order };
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let closed = false;
    let buttons: { close(): Promise<void> } | null = null;
    loadPayPalSdk(clientId, currency)
      .then((paypal: PayPalNamespace) => {
        if (closed || !container.current) return;
        const rendered = paypal.Buttons({
          createOrder: () => latest.current.checkout.createPayPalOrder(latest.current.order),
          onApprove: async (data: { orderID: string }, actions?: { restart?(): Promise<void> }) => {
            const outcome = await latest.current.checkout.capturePayPal(data.orderID, { restartable: true });
            if (outcome === 'restart' && actions?.restart) await actions.restart();
          },
          onCancel: (data: { orderID: string }) => void latest.current.checkout.cancelPayPal(data.orderID),
          onError: () => latest.current.checkout.fail('payment:errors.processing'),
        });
        buttons = rendered;
        return rendered.render(container.current).catch(() => setFailed('payment:errors.render'));
      })
      .catch(() => setFailed('payment:errors.sdk'));
    return () => {
      closed = true;
      void buttons?.close().catch(() => undefined);
    };
  }, [clientId, currency]);

  return (
    <div className={`paypal-buttons${props.disabled ? ' paypal-buttons--disabled' : ''}`} aria-busy={props.disabled}>
      <div ref={container} />
      {failed && <p role="alert">{t(failed)}</p>}
    </div>
  );
}

interface OrangeMoneyModalProps {
  intent: Intent;
  /** Called once, as soon as the payment is seen paid (before the 5 s of success). */
  onPaid(): void;
  onClosed(reason: OrangeOutcome, declined?: string): void;
}

/**
 * The Orange Money QR code (spec §4): its status every 2 s; paid shows the success 5 s; failed closes with
 * 'Payment failed'; cancelled at Orange Money closes as cancelled; the countdown reaching 0 closes; closing by hand
 * cancels the payment.
 */
export function OrangeMoneyModal({ intent, onPaid, onClosed }: OrangeMoneyModalProps) {
  const { t, i18n } = useTranslation();
  const [status] = usePaymentStatusMutation();
  const [opened] = useState(() => Date.now());
  const now = useNow(1000);
  const [paid, setPaid] = useState(false);
  const closedRef = useRef(onClosed);
  closedRef.current = onClosed;
  const paidRef = useRef(onPaid);
  paidRef.current = onPaid;
  const validity = intent.validity ?? 300;
  const left = Math.max(0, validity - Math.floor((now - opened) / 1000));

  useEffect(() => {
    if (paid) return;
    let stopped = false;
    const poll = async () => {
      while (!stopped) {
        await sleep(PAYMENT_LIMITS.orangeMoneyPollMs);
        if (stopped) return;
        const answer = await status(intent.paymentId)
          .unwrap()
          .catch(() => null);
        if (stopped || !answer) continue;
        if (answer.status === 'COMPLETED') {
          paidRef.current();
          setPaid(true);
          return;
        }
        if (answer.status === 'FAILED') {
          return answer.reason ? closedRef.current('failed', answer.reason) : closedRef.current('failed');
        }
        // Cancelled from the phone is the payer's choice: it is not called expired, nor failed.
        if (answer.status === 'CANCELLED') return closedRef.current('cancelled');
        if (answer.status === 'EXPIRED') return closedRef.current('expired');
      }
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [intent.paymentId, paid, status]);

  useEffect(() => {
    if (!paid && left === 0) closedRef.current('expired');
  }, [left, paid]);

  useEffect(() => {
    if (!paid) return;
    // The success stays in view 5 s, then the checkout goes on.
    const timer = setTimeout(() => closedRef.current('paid'), PAYMENT_LIMITS.successDelayMs);
    return () => clearTimeout(timer);
  }, [paid]);

  const qr = intent.qrCode?.startsWith('data:') ? intent.qrCode : `data:image/png;base64,${intent.qrCode ?? ''}`;
  return (
    <Modal title={t('payment:orange.title')} onClose={() => (paid ? undefined : onClosed('user'))} className="om-modal">
      <p className="om-modal__amount">{formatMoney(intent.amount, 'XOF', i18n.language)}</p>
      <img className="om-modal__qr" src={qr} alt={t('payment:orange.qrAlt')} width={220} height={220} />
      <p>{t('payment:orange.scan')}</p>
      {intent.merchantCode && (
        <p>
          {t('payment:orange.merchant')} <strong className="om-modal__merchant">{intent.merchantCode}</strong>
        </p>
      )}
      <div className="om-modal__links">
        {intent.deepLinks?.OM && (
          <a className="button button--ghost" href={intent.deepLinks.OM}>
            {t('payment:orange.openOm')}
          </a>
        )}
        {intent.deepLinks?.MAXIT && (
          <a className="button button--ghost" href={intent.deepLinks.MAXIT}>
            {t('payment:orange.openMaxit')}
          </a>
        )}
      </div>
      {paid ? (
        <p className="payment-success" role="status">
          {t('payment:success')}
        </p>
      ) : (
        <>
          <p className="om-modal__countdown" role="timer" aria-live="off">
            {t('payment:orange.validity', { time: clock(left) })}
          </p>
          <p className="muted" role="status">
            {t('payment:orange.waiting')}
          </p>
        </>
      )}
      <div className="modal__actions">
        <button type="button" className="button button--ghost" disabled={paid} onClick={() => onClosed('user')}>
          {t('payment:orange.cancel')}
        </button>
      </div>
    </Modal>
  );
}
