import {
  OrangeMoneyGateway,
  type OrangeMoneyQrCode,
  type OrangeMoneyTransaction,
  PayPalGateway,
  type PayPalOrder,
  type PayPalWebhookEvent,
  ProviderUnavailable,
} from './port';

const notOffered = (name: string, setting: string): ProviderUnavailable =>
  new ProviderUnavailable(`${name} is not offered on this server (${setting}=off)`);

/**
 * PayPal when it is not offered (`PAYPAL=off`): every call is refused as unavailable, so nothing can be opened,
 * captured or confirmed through it (the routes refuse first; the reconciler logs a payment left from before).
 */
export class OffPayPalGateway extends PayPalGateway {
  createOrder(): Promise<PayPalOrder> {
    return Promise.reject(notOffered('PayPal', 'PAYPAL'));
  }
  captureOrder(): Promise<PayPalOrder> {
    return Promise.reject(notOffered('PayPal', 'PAYPAL'));
  }
  getOrder(): Promise<PayPalOrder> {
    return Promise.reject(notOffered('PayPal', 'PAYPAL'));
  }
  verifyWebhook(): Promise<PayPalWebhookEvent | null> {
    return Promise.resolve(null);
  }
}

/** Orange Money when it is not offered (`ORANGE_MONEY=off`), as above. */
export class OffOrangeMoneyGateway extends OrangeMoneyGateway {
  readonly merchantCode = '';
  createQrCode(): Promise<OrangeMoneyQrCode> {
    return Promise.reject(notOffered('Orange Money', 'ORANGE_MONEY'));
  }
  getTransaction(): Promise<OrangeMoneyTransaction> {
    return Promise.reject(notOffered('Orange Money', 'ORANGE_MONEY'));
  }
  verifyCallback(): Promise<OrangeMoneyTransaction | null> {
    return Promise.resolve(null);
  }
}
