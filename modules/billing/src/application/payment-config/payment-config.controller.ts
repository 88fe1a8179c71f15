import { Controller, Get, Inject } from '@nestjs/common';
import type { PaymentsConfig } from '@kora/contracts';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BILLING_OPTIONS, type BillingOptions, providerMode } from '../billing-options';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class PaymentConfigController {
  constructor(@Inject(BILLING_OPTIONS) private readonly options: BillingOptions) {}

  @Get('config')
  @ApiOperation({
    operationId: 'PaymentsController_config',
    summary:
      'Which providers the client pays with: the built-in sandbox (approval page in a popup; only while no provider is live), the real ones (PayPal JS SDK with this client id), or none (off)',
  })
  config(): PaymentsConfig {
    const paypal = providerMode(this.options, 'PAYPAL');
    return {
      paypal: paypal === 'live' ? { mode: 'live', clientId: this.options.paypal!.clientId } : { mode: paypal },
      orangeMoney: { mode: providerMode(this.options, 'ORANGE_MONEY') },
    };
  }
}
