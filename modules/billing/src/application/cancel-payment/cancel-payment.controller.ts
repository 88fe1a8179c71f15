import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { CancelPaymentService } from './cancel-payment.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class CancelPaymentController {
  constructor(private readonly payments: CancelPaymentService) {}

  @Post('orange-money/:paymentId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PaymentsController_cancel',
    summary: 'Cancel a pending Orange Money payment (409 BILLING.ALREADY_PAID once paid)',
  })
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('paymentId') paymentId: string) {
    return this.payments.cancel(user.userId, paymentId, 'ORANGE_MONEY');
  }

  @Post('paypal/:orderId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PaymentsController_cancelPayPal',
    summary:
      'Cancel a pending PayPal order whose window was closed without approval (409 BILLING.ALREADY_PAID once paid)',
  })
  cancelPayPal(@CurrentUser() user: AuthenticatedUser, @Param('orderId') orderId: string) {
    return this.payments.cancel(user.userId, orderId, 'PAYPAL');
  }
}
