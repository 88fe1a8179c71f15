import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { BILLING_OPTIONS, type BillingOptions } from '../billing-options';
import { ListPayments, type PaymentDocument, type PaymentPage } from '../../contracts/queries';
import { toMajor } from '../../domain/catalogue';
import { paymentNotFound } from '../../domain/errors';
import { type IntentAnswer, type IntentRequest, PaymentsService } from './payments.service';

const MAX_LIMIT = 100;

/** A payment as the history shows it: amounts as decimals, the method in the client's words. */
export function paymentView(doc: PaymentDocument) {
  return {
    id: doc._id,
    date: doc.createdAt,
    amount: toMajor(doc.price.amount, doc.price.currency),
    currency: doc.price.currency,
    payment_method: doc.provider === 'PAYPAL' ? 'paypal' : 'mobile money',
    provider: doc.provider,
    planName: doc.planName,
    planId: doc.planId,
    serviceType: doc.service,
    type: doc.kind === 'PACK' ? 'subscription' : 'single_track',
    trackId: doc.trackId,
    billingCycle: doc.billingCycle,
    credits: doc.credits,
    // The history knows four statuses: a cancelled or expired intent took no money, like a failed one.
    status: doc.status === 'cancelled' || doc.status === 'expired' ? 'failed' : doc.status,
    detailedStatus: doc.status,
    failure: doc.failure,
    updatedAt: doc.updatedAt,
  };
}

/** What the client needs to pick a checkout: `live` is the provider's real API (PayPal's JS SDK with `clientId`). */
export interface PaymentsConfig {
  paypal: { mode: 'sandbox' } | { mode: 'live'; clientId: string };
  orangeMoney: { mode: 'sandbox' | 'live' };
}

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly queries: QueryBus,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  @Get('config')
  @ApiOperation({
    summary:
      'Which providers the client pays with: the built-in sandbox (approval page in a popup) or the real ones (PayPal JS SDK with this client id)',
  })
  config(): PaymentsConfig {
    return {
      paypal: this.options.paypal ? { mode: 'live', clientId: this.options.paypal.clientId } : { mode: 'sandbox' },
      orangeMoney: { mode: this.options.orangeMoney ? 'live' : 'sandbox' },
    };
  }

  @Post('createIntent')
  @ApiOperation({
    summary:
      'Open a payment (provider PAYPAL or ORANGE_MONEY) for a pack (planId, billingCycle) or one track (trackId); priced by the server',
  })
  createIntent(@CurrentUser() user: AuthenticatedUser, @Body() body: IntentRequest): Promise<IntentAnswer> {
    return this.payments.createIntent(user.userId, body ?? {});
  }

  @Post('status')
  @HttpCode(200)
  @ApiOperation({ summary: 'A payment’s status (paymentIntentId: our payment id or the provider’s order id)' })
  status(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: { paymentIntentId?: unknown; paymentId?: unknown },
  ): Promise<{ status: string; paymentStatus: string; paymentId: string }> {
    const id = body?.paymentIntentId ?? body?.paymentId;
    if (typeof id !== 'string' || !id) throw paymentNotFound();
    return this.payments.status(user.userId, id);
  }

  @Post('paypal/capture/:orderId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Capture an approved PayPal order; a repeat answers success and grants nothing more' })
  async capture(
    @CurrentUser() user: AuthenticatedUser,
    @Param('orderId') orderId: string,
  ): Promise<{ success: boolean; message: string; status: string; paymentId: string }> {
    const { paymentId, state } = await this.payments.owned(user.userId, orderId);
    if (state.intent!.provider !== 'PAYPAL') throw paymentNotFound();
    return { ...(await this.payments.capturePayPal(paymentId, state, 'capture')), paymentId };
  }

  @Post('orange-money/:paymentId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a pending Orange Money payment (409 BILLING.ALREADY_PAID once paid)' })
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('paymentId') paymentId: string) {
    return this.payments.cancelOrangeMoney(user.userId, paymentId);
  }

  @Get('history')
  @ApiOperation({ summary: 'The user’s payments, newest first (page, limit up to 100, search on plan, method, date)' })
  async history(
    @CurrentUser() user: AuthenticatedUser,
    @Query('page') pageText?: string,
    @Query('limit') limitText?: string,
    @Query('search') search?: string,
  ) {
    const page = Math.max(1, Number.parseInt(pageText ?? '1', 10) || 1);
    const limit = Math.min(MAX_LIMIT, Math.max(1, Number.parseInt(limitText ?? '7', 10) || 7));
    const result = await this.queries.execute<ListPayments, PaymentPage>(
      new ListPayments(user.userId, page, limit, search?.trim() ? search.trim() : null),
    );
    return {
      success: true,
      payments: result.payments.map(paymentView),
      pagination: { total: result.total, page, limit, pages: Math.ceil(result.total / limit) },
    };
  }
}
