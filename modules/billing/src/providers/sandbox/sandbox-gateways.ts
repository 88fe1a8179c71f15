import { Injectable } from '@nestjs/common';
import {
  OrangeMoneyGateway,
  type OrangeMoneyQrCode,
  type OrangeMoneyTransaction,
  PayPalGateway,
  type PayPalOrder,
  type PayPalWebhookEvent,
  parseJson,
} from '../port';
import { PaymentSandbox, SANDBOX_MERCHANT } from './payment-sandbox';

/** PayPal's API side of the built-in sandbox. */
@Injectable()
export class SandboxPayPalGateway extends PayPalGateway {
  constructor(private readonly sandbox: PaymentSandbox) {
    super();
  }

  createOrder(input: Parameters<PayPalGateway['createOrder']>[0]): Promise<PayPalOrder> {
    return this.sandbox.createOrder(input);
  }

  captureOrder(orderId: string, requestId: string): Promise<PayPalOrder> {
    return this.sandbox.captureOrder(orderId, requestId);
  }

  getOrder(orderId: string): Promise<PayPalOrder> {
    return this.sandbox.getOrder(orderId);
  }

  async verifyWebhook(headers: Record<string, string | undefined>, raw: string): Promise<PayPalWebhookEvent | null> {
    return this.sandbox.verifyPayPalWebhook(headers, raw) ? (parseJson(raw) as PayPalWebhookEvent | null) : null;
  }
}

/** Orange Money's API side of the built-in sandbox. */
@Injectable()
export class SandboxOrangeMoneyGateway extends OrangeMoneyGateway {
  readonly merchantCode = SANDBOX_MERCHANT;

  constructor(private readonly sandbox: PaymentSandbox) {
    super();
  }

  createQrCode(input: Parameters<OrangeMoneyGateway['createQrCode']>[0]): Promise<OrangeMoneyQrCode> {
    return this.sandbox.createQrCode(input);
  }

  getTransaction(reference: string): Promise<OrangeMoneyTransaction> {
    return this.sandbox.getTransaction(reference);
  }

  async verifyCallback(
    headers: Record<string, string | undefined>,
    raw: string,
  ): Promise<OrangeMoneyTransaction | null> {
    if (!this.sandbox.verifyOrangeMoneyCallback(headers, raw)) return null;
    const callback = (parseJson(raw) ?? {}) as {
      reference?: string;
      transactionId?: string;
      status?: OrangeMoneyTransaction['status'];
      amount?: OrangeMoneyTransaction['amount'];
      metadata?: Record<string, string>;
      reason?: string;
    };
    if (!callback.reference || !callback.status) return null;
    return {
      reference: callback.reference,
      transactionId: callback.transactionId ?? null,
      status: callback.status,
      amount: callback.amount ?? null,
      metadata: callback.metadata ?? {},
      ...(typeof callback.reason === 'string' ? { reason: callback.reason } : {}),
    };
  }
}
