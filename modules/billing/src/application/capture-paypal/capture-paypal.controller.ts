import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { paymentNotFound } from '../../domain/errors';
import { PaymentsService } from '../payments/payments.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class CapturePayPalController {
  constructor(private readonly payments: PaymentsService) {}

  @Post('paypal/capture/:orderId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PaymentsController_capture',
    summary: 'Capture an approved PayPal order; a repeat answers success and grants nothing more',
  })
  async capture(
    @CurrentUser() user: AuthenticatedUser,
    @Param('orderId') orderId: string,
  ): Promise<{ success: boolean; message: string; status: string; paymentId: string }> {
    const { paymentId, state } = await this.payments.owned(user.userId, orderId);
    if (state.intent!.provider !== 'PAYPAL') throw paymentNotFound();
    return { ...(await this.payments.capturePayPal(paymentId, state, 'capture')), paymentId };
  }
}
