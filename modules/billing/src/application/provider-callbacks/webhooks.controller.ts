import { Controller, Headers, HttpCode, Inject, NotFoundException, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@kora/kernel/nest';
import { InvalidSignatureError, ProviderUnavailableError } from '../../domain/errors';
import { OrangeMoneyGateway, PayPalGateway, type PayPalWebhookEvent, ProviderUnavailable } from '../../providers/port';
import { BILLING_OPTIONS, type BillingOptions, providerMode } from '../billing-options';
import { ProviderCallbacksService } from './provider-callbacks.service';

const invalidSignature = (): InvalidSignatureError => new InvalidSignatureError();

/** The provider could not be asked whether a delivery is genuine (or confirm it): 502, so it delivers again later. */
const unreachable = (error: unknown): never => {
  throw error instanceof ProviderUnavailable ? new ProviderUnavailableError() : error;
};

/**
 * Provider callbacks: verified by the provider's adapter on the bytes as sent (the JSON parser keeps them as
 * `rawBody`) before anything counts; repeats change nothing.
 */
@ApiExcludeController()
@Public()
@Controller('api/payments')
export class WebhooksController {
  constructor(
    private readonly payments: ProviderCallbacksService,
    private readonly paypal: PayPalGateway,
    private readonly orangeMoney: OrangeMoneyGateway,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  /** A provider that is not offered has no callback route. */
  private offered(provider: 'PAYPAL' | 'ORANGE_MONEY'): void {
    if (providerMode(this.options, provider) === 'off') throw new NotFoundException();
  }

  @Post('paypal/webhook')
  @HttpCode(200)
  async paypalWebhook(
    @Headers() headers: Record<string, string | undefined>,
    @Req() request: { rawBody?: string },
  ): Promise<{ received: true }> {
    this.offered('PAYPAL');
    const event: PayPalWebhookEvent | null = await this.paypal
      .verifyWebhook(headers, request.rawBody ?? '')
      .catch(unreachable);
    if (!event) throw invalidSignature();
    await this.payments.onPayPalWebhook(event.event_type, event.resource).catch(unreachable);
    return { received: true };
  }

  @Post('orange-money/callback')
  @HttpCode(200)
  async orangeMoneyCallback(
    @Headers() headers: Record<string, string | undefined>,
    @Req() request: { rawBody?: string },
  ): Promise<{ received: true }> {
    this.offered('ORANGE_MONEY');
    const transaction = await this.orangeMoney.verifyCallback(headers, request.rawBody ?? '').catch(unreachable);
    if (!transaction) throw invalidSignature();
    await this.payments.onOrangeMoneyCallback(transaction).catch(unreachable);
    return { received: true };
  }
}
