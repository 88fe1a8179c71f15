import type { Intent } from '@kora/contracts';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { CreatePaymentService, type IntentBody } from './create-payment.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class CreatePaymentController {
  constructor(private readonly payments: CreatePaymentService) {}

  @Post('createIntent')
  @ApiOperation({
    operationId: 'PaymentsController_createIntent',
    summary:
      'Open a payment (provider PAYPAL or ORANGE_MONEY) for a pack (planId, billingCycle) or one track (trackId); priced by the server',
  })
  createIntent(@CurrentUser() user: AuthenticatedUser, @Body() body: IntentBody): Promise<Intent> {
    return this.payments.createIntent(user.userId, body ?? {});
  }
}
