import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { CancelOrangeMoneyService } from './cancel-orange-money.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class CancelOrangeMoneyController {
  constructor(private readonly payments: CancelOrangeMoneyService) {}

  @Post('orange-money/:paymentId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PaymentsController_cancel',
    summary: 'Cancel a pending Orange Money payment (409 BILLING.ALREADY_PAID once paid)',
  })
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('paymentId') paymentId: string) {
    return this.payments.cancel(user.userId, paymentId);
  }
}
