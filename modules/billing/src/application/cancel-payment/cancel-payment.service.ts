import type { CancelAnswer } from '@kora/contracts';
import { Injectable } from '@nestjs/common';
import { CommandContexts } from '@kora/kernel/nest';
import type { PaymentProvider } from '../../contracts/events';
import { PaymentNotFoundError } from '../../domain/errors';
import { ProviderRefusal, ProviderUnavailable } from '../../providers/port';
import { Ledger } from '../ledger';
import { PaymentRecords } from '../payments/payment-records';
import { PaymentRefresh } from '../payments/payment-refresh';

/**
 * The customer gives up on a pending payment: the Orange Money QR closed, the PayPal window closed without approval.
 * The provider is asked first, so a payment it has the money for is recorded as paid (409 BILLING.ALREADY_PAID)
 * rather than marked cancelled. A PayPal order approved after this is never captured: capture takes pending
 * payments only, so nothing is charged.
 */
@Injectable()
export class CancelPaymentService {
  constructor(
    private readonly ledger: Ledger,
    private readonly records: PaymentRecords,
    private readonly refresh: PaymentRefresh,
    private readonly contexts: CommandContexts,
  ) {}

  async cancel(userId: string, id: string, provider: PaymentProvider): Promise<CancelAnswer> {
    const { paymentId, state } = await this.records.owned(userId, id);
    if (state.intent!.provider !== provider) throw new PaymentNotFoundError();
    if (state.status === 'pending') {
      try {
        await this.refresh.refresh(paymentId, state, 'status');
      } catch (error) {
        if (!(error instanceof ProviderUnavailable || error instanceof ProviderRefusal)) throw error;
      }
    }
    const { state: after } = await this.ledger.payment(
      paymentId,
      { type: 'Cancel', by: 'user' },
      this.contexts.forUser(userId),
    );
    return { success: true, status: after.status! };
  }
}
