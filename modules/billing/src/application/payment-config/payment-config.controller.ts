import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BILLING_OPTIONS, type BillingOptions } from '../billing-options';

/** What the client needs to pick a checkout: `live` is the provider's real API (PayPal's JS SDK with `clientId`). */
export interface PaymentsConfig {
  paypal: { mode: 'sandbox' } | { mode: 'live'; clientId: string };
  orangeMoney: { mode: 'sandbox' | 'live' };
}

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class PaymentConfigController {
  constructor(@Inject(BILLING_OPTIONS) private readonly options: BillingOptions) {}

  @Get('config')
  @ApiOperation({
    operationId: 'PaymentsController_config',
    summary:
      'Which providers the client pays with: the built-in sandbox (approval page in a popup) or the real ones (PayPal JS SDK with this client id)',
  })
  config(): PaymentsConfig {
    return {
      paypal: this.options.paypal ? { mode: 'live', clientId: this.options.paypal.clientId } : { mode: 'sandbox' },
      orangeMoney: { mode: this.options.orangeMoney ? 'live' : 'sandbox' },
    };
  }
}
