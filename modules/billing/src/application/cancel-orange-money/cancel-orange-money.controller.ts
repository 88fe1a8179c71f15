import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { PaymentsService } from '../payments/payments.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class CancelOrangeMoneyController {
  constructor(private readonly payments: PaymentsService) {}

  @Post('orange-money/:paymentId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PaymentsController_cancel',
    summary: 'Cancel a pending Orange Money payment (409 BILLING.ALREADY_PAID once paid)',
  })
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('paymentId') paymentId: string) {
    return this.payments.cancelOrangeMoney(user.userId, paymentId);
  }
}
