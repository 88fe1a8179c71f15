import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Currency } from '../../../lib/format';
import { loadPayPalSdk, type PayPalNamespace } from '../model/paypalSdk';
import type { Checkout, CheckoutOrder } from '../hooks/useCheckout';

/** PayPal's own buttons (the real PayPal): the SDK with the spec's options, rendered once per currency. */
export function PayPalButtons(props: {
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
