/** The parts of PayPal's JS SDK the checkout uses. */
export interface PayPalNamespace {
  Buttons(options: {
    createOrder(): Promise<string>;
    /** `actions.restart()` reopens the checkout on the same order when the funding source was declined. */
    onApprove(data: { orderID: string }, actions?: { restart?(): Promise<void> }): Promise<void>;
    onCancel(data: { orderID: string }): void;
    onError(error: unknown): void;
  }): { render(container: HTMLElement): Promise<void>; close(): Promise<void> };
}

/**
 * The SDK's address with the spec's options (§7): the plan's currency, cards on, the buttons component, intent
 * capture, pay-later and Venmo off.
 */
export function paypalSdkUrl(clientId: string, currency: string): string {
  const params = new URLSearchParams({
    'client-id': clientId,
    currency,
    components: 'buttons',
    intent: 'capture',
    'enable-funding': 'card',
    'disable-funding': 'paylater,venmo',
  });
  return `https://www.paypal.com/sdk/js?${params.toString()}`;
}

const loading = new Map<string, Promise<PayPalNamespace>>();

/** Loads the SDK once per client id and currency (a new currency needs a new script). */
export function loadPayPalSdk(clientId: string, currency: string): Promise<PayPalNamespace> {
  const src = paypalSdkUrl(clientId, currency);
  const known = loading.get(src);
  if (known) return known;
  const promise = new Promise<PayPalNamespace>((resolve, reject) => {
    for (const old of document.querySelectorAll('script[data-paypal-sdk]')) old.remove();
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.dataset.paypalSdk = 'true';
    script.onload = () => {
      const paypal = (window as unknown as { paypal?: PayPalNamespace }).paypal;
      if (paypal) resolve(paypal);
      else reject(new Error('Failed to load PayPal SDK'));
    };
    script.onerror = () => {
      loading.delete(src);
      reject(new Error('Failed to load PayPal SDK'));
    };
    document.head.append(script);
  });
  loading.set(src, promise);
  return promise;
}
