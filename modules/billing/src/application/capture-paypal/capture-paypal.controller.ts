import type { CaptureAnswer } from '@kora/contracts';
import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { PaymentNotFoundError } from '../../domain/errors';
import { PaymentRecords } from '../payments/payment-records';
import { CapturePayPalService } from './capture-paypal.service';

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class CapturePayPalController {
  constructor(
    private readonly records: PaymentRecords,
    private readonly paypal: CapturePayPalService,
  ) {}

  @Post('paypal/capture/:orderId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'PaymentsController_capture',
    summary: 'Capture an approved PayPal order; a repeat answers success and grants nothing more',
  })
  async capture(@CurrentUser() user: AuthenticatedUser, @Param('orderId') orderId: string): Promise<CaptureAnswer> {
    const { paymentId, state } = await this.records.owned(user.userId, orderId);
    if (state.intent!.provider !== 'PAYPAL') throw new PaymentNotFoundError();
    return { ...(await this.paypal.capture(paymentId, state, 'capture')), paymentId };
  }
}
