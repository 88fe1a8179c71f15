import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@kora/kernel/nest';
import type { FastifyReply } from 'fastify';
import { BILLING_OPTIONS, type BillingOptions } from '../../application/billing-options';
import { PaymentSandbox, type SandboxKnobs } from './payment-sandbox';

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(
    title,
  )}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.2rem;margin:.3rem}.note{color:#666;font-size:.9rem}</style></head><body>${body}<p class="note">Kora payment sandbox: no real money moves.</p></body></html>`;

/** What the phone's page says once the payment has ended, as the Orange Money app would. */
const ORANGE_MONEY_ENDINGS: Partial<Record<string, string>> = {
  SUCCESS: 'Payment confirmed. You can go back to Kora: your purchase is being unlocked.',
  FAILED: 'Payment refused. Nothing was charged.',
  CANCELLED: 'Payment cancelled. Nothing was charged.',
  EXPIRED: 'This payment code has expired. Nothing was charged.',
  REFUNDED: 'This payment was refunded.',
};

/**
 * The built-in sandbox's pages and routes: PayPal's approval page (`/sandbox/paypal/checkout?token={orderId}`) and its
 * scriptable twin, Orange Money's payment link (what the QR code opens) and the customer's confirmation, and the
 * knobs (decline, fail, slow, duplicate callbacks, lost capture answer). Only mounted when the sandbox is the adapter.
 */
@ApiExcludeController()
@Public()
@Controller('sandbox')
export class SandboxController {
  constructor(
    private readonly sandbox: PaymentSandbox,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  /**
   * The knobs change every user's payments (declines, failures, delays): open only on a development machine or a
   * test run (`SANDBOX_KNOBS=on`), otherwise to the operators' token. Anyone else finds nothing there.
   */
  private operator(authorization: string | undefined): void {
    if (!this.options.sandboxKnobs?.(authorization)) throw new NotFoundException();
  }

  @Get('knobs')
  knobs(@Headers('authorization') authorization: string | undefined): SandboxKnobs {
    this.operator(authorization);
    return this.sandbox.knobs;
  }

  @Put('knobs')
  setKnobs(
    @Headers('authorization') authorization: string | undefined,
    @Body() body: Partial<SandboxKnobs>,
  ): SandboxKnobs {
    this.operator(authorization);
    const change: Partial<SandboxKnobs> = {};
    for (const key of ['decline', 'fail', 'duplicateCallbacks', 'webhooks', 'loseCaptureResponse'] as const) {
      if (typeof body?.[key] === 'boolean') change[key] = body[key];
    }
    if (typeof body?.delayMs === 'number' && body.delayMs >= 0) change.delayMs = Math.min(body.delayMs, 60_000);
    if (
      body?.payAmount === null ||
      (typeof body?.payAmount === 'string' && /^(\d{1,9}(\.\d{1,2})?)?$/.test(body.payAmount))
    ) {
      change.payAmount = body.payAmount;
    }
    return this.sandbox.setKnobs(change);
  }

  @Get('paypal/checkout')
  async checkout(@Query('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const order = await this.sandbox.getOrder(String(token ?? '')).catch(() => null);
    if (!order) throw new NotFoundException('Unknown order');
    const unit = order.purchase_units[0]!;
    const id = escape(order.id);
    const body =
      order.status === 'CREATED'
        ? `<h1>PayPal sandbox</h1><p>${escape(unit.description ?? '')}</p><p><strong>${escape(unit.amount.value)} ${escape(
            unit.amount.currency_code,
          )}</strong></p><form method="post" action="/sandbox/paypal/orders/${id}/approve"><input type="hidden" name="redirect" value="1"><button name="outcome" value="approve">Approve</button><button name="outcome" value="decline">Approve with a card that will be declined</button></form><form method="post" action="/sandbox/paypal/orders/${id}/cancel"><button>Cancel</button></form>`
        : `<h1>PayPal sandbox</h1><p>Order ${id}: ${escape(order.status)}</p>`;
    void reply.type('text/html; charset=utf-8').send(page('PayPal sandbox', body));
  }

  @Post('paypal/orders/:orderId/approve')
  @HttpCode(200)
  async approve(
    @Param('orderId') orderId: string,
    @Body() body: { outcome?: string; redirect?: string } | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const order = await this.sandbox.approveOrder(orderId, body?.outcome === 'decline' ? 'decline' : 'approve');
    if (!order) throw new NotFoundException('Unknown order');
    if (body?.redirect) {
      void reply.redirect(`${this.sandbox.publicUrl}/payment/success?token=${encodeURIComponent(orderId)}`, 303);
      return;
    }
    void reply.send({ id: order.id, status: order.status });
  }

  /**
   * PayPal refunds a captured order (its dashboard), all that is left of it or `amount` ("5.00"), or the buyer's bank
   * reverses it (`outcome: reverse`). A refund PayPal would refuse answers 422 with PayPal's error shape.
   */
  @Post('paypal/orders/:orderId/refund')
  @HttpCode(200)
  async refund(
    @Param('orderId') orderId: string,
    @Body() body: { outcome?: string; amount?: unknown } | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const amount = body?.amount;
    const result =
      amount !== undefined && typeof amount !== 'string'
        ? { refused: 'INVALID_PARAMETER_VALUE' as const }
        : await this.sandbox.refundOrder(orderId, body?.outcome === 'reverse' ? 'reverse' : 'refund', amount);
    if (!result) throw new NotFoundException('No captured order');
    if ('refused' in result) {
      void reply.status(422).send({
        name: 'UNPROCESSABLE_ENTITY',
        message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
        details: [{ field: '/amount/value', issue: result.refused }],
      });
      return;
    }
    void reply.send(result.refund);
  }

  @Post('paypal/orders/:orderId/cancel')
  async cancel(@Param('orderId') orderId: string, @Res() reply: FastifyReply): Promise<void> {
    void reply.redirect(`${this.sandbox.publicUrl}/payment/cancel?token=${encodeURIComponent(orderId)}`, 303);
  }

  @Get('orange-money/pay/:paymentId')
  async orangeMoneyPage(@Param('paymentId') paymentId: string, @Res() reply: FastifyReply): Promise<void> {
    const qr = await this.sandbox.findQr(paymentId);
    if (!qr) throw new NotFoundException('Unknown payment');
    const id = escape(paymentId);
    const status = qr.transaction.status;
    const body =
      status === 'INITIATED'
        ? `<h1>Orange Money sandbox</h1><p>${escape(qr.name)}: <strong>${qr.amount.value} FCFA</strong></p><form method="post" action="/sandbox/orange-money/payments/${id}/pay"><input type="hidden" name="redirect" value="1"><button name="outcome" value="pay">Confirm the payment</button><button name="outcome" value="decline">Refuse (insufficient balance)</button></form>`
        : `<h1>Orange Money sandbox</h1><p role="status">${escape(
            status === 'FAILED' && qr.transaction.reason === 'INSUFFICIENT_BALANCE'
              ? 'Payment refused: your balance is too low. Nothing was charged.'
              : (ORANGE_MONEY_ENDINGS[status] ?? `Payment ${status}.`),
          )}</p><p>Payment ${id}</p>`;
    void reply.type('text/html; charset=utf-8').send(page('Orange Money sandbox', body));
  }

  /**
   * The customer's answer in the app. The phone's page (a form, `redirect`) goes back to the payment's page, which
   * then says how it ended, as the app would; a script (no `redirect`) gets the transaction as JSON.
   */
  @Post('orange-money/payments/:paymentId/pay')
  @HttpCode(200)
  async pay(
    @Param('paymentId') paymentId: string,
    @Body() body: { outcome?: string; redirect?: string } | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const transaction = await this.sandbox.payQr(paymentId, body?.outcome === 'decline' ? 'decline' : 'pay');
    if (!transaction) throw new NotFoundException('Unknown payment');
    if (body?.redirect) {
      void reply.redirect(`/sandbox/orange-money/pay/${encodeURIComponent(paymentId)}`, 303);
      return;
    }
    void reply.send(transaction);
  }
}
