import type { PaymentStatusAnswer } from '@kora/contracts';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { PaymentNotFoundError } from '../../domain/errors';
import { PaymentStatusService } from './payment-status.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class PaymentStatusController {
  constructor(private readonly payments: PaymentStatusService) {}

  @Post('status')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PaymentsController_status',
    summary:
      'A payment’s status (paymentIntentId: our payment id or the provider’s order id); a failed one gives the ' +
      'provider’s reason when it gave one (INSUFFICIENT_BALANCE, INSTRUMENT_DECLINED...)',
  })
  status(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: { paymentIntentId?: unknown; paymentId?: unknown },
  ): Promise<PaymentStatusAnswer> {
    const id = body?.paymentIntentId ?? body?.paymentId;
    if (typeof id !== 'string' || !id) throw new PaymentNotFoundError();
    return this.payments.status(user.userId, id);
  }
}
