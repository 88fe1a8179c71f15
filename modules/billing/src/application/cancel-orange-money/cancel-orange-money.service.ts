import { Injectable } from '@nestjs/common';
import { CommandContexts } from '@kora/kernel/nest';
import { paymentNotFound } from '../../domain/errors';
import { ProviderRefusal, ProviderUnavailable } from '../../providers/port';
import { Ledger } from '../ledger';
import { PaymentRecords } from '../payments/payment-records';
import { PaymentRefresh } from '../payments/payment-refresh';

@Injectable()
export class CancelOrangeMoneyService {
  constructor(
    private readonly ledger: Ledger,
    private readonly records: PaymentRecords,
    private readonly refresh: PaymentRefresh,
    private readonly contexts: CommandContexts,
  ) {}

  async cancel(userId: string, id: string): Promise<{ success: boolean; status: string }> {
    const { paymentId, state } = await this.records.owned(userId, id);
    if (state.intent!.provider !== 'ORANGE_MONEY') throw paymentNotFound();
    // The customer may have paid a moment ago: ask first, so a paid payment is never marked cancelled.
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
