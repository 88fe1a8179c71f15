import type { Intent } from '@kora/contracts';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { CreatePaymentService, type IntentBody } from '../create-payment/create-payment.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/subscriptions')
export class SubscribeController {
  constructor(private readonly payments: CreatePaymentService) {}

  @Post('subscribe')
  @ApiOperation({
    operationId: 'SubscriptionsController_subscribe',
    summary: 'Buy a pack: opens a payment like createIntent (planId, billingCycle, currency, provider)',
  })
  subscribe(@CurrentUser() user: AuthenticatedUser, @Body() body: IntentBody): Promise<Intent> {
    return this.payments.createIntent(user.userId, { ...(body ?? {}), paymentType: 'PACK' });
  }
}
