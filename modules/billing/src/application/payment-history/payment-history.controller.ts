import type { PaymentHistoryAnswer, PaymentRecord } from '@kora/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CurrentUser } from '@kora/kernel/nest';
import { ListPayments, type PaymentDocument, type PaymentPage } from '../../contracts/queries';
import { toMajor } from '../../domain/catalogue';

const MAX_LIMIT = 100;

/** A payment as the history shows it: amounts as decimals, the method in the client's words. */
export function paymentView(doc: PaymentDocument): PaymentRecord {
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

@ApiTags('billing')
@ApiBearerAuth()
@Controller('api/payments')
export class PaymentHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('history')
  @ApiOperation({
    operationId: 'PaymentsController_history',
    summary: 'The user’s payments, newest first (page, limit up to 100, search on plan, method, date)',
  })
  async history(
    @CurrentUser() user: AuthenticatedUser,
    @Query('page') pageText?: string,
    @Query('limit') limitText?: string,
    @Query('search') search?: string,
  ): Promise<PaymentHistoryAnswer> {
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
