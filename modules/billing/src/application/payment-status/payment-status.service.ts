import type { PaymentStatus, PaymentStatusAnswer } from '@kora/contracts';
import { Injectable } from '@nestjs/common';
import { BillingError } from '../../domain/errors';
import { declineReason } from '../../domain/payment';
import { ProviderRefusal, ProviderUnavailable } from '../../providers/port';
import { Ledger } from '../ledger';
import { PaymentRecords } from '../payments/payment-records';
import { PaymentRefresh } from '../payments/payment-refresh';

@Injectable()
export class PaymentStatusService {
  constructor(
    private readonly ledger: Ledger,
    private readonly records: PaymentRecords,
    private readonly refresh: PaymentRefresh,
  ) {}

  /** The payment's status; a pending one is asked of the provider first (a lost callback cannot keep it pending). */
  async status(userId: string, id: string): Promise<PaymentStatusAnswer> {
    const { paymentId, state } = await this.records.owned(userId, id);
    let current = state;
    if (state.status === 'pending') {
      try {
        await this.refresh.refresh(paymentId, state, 'status');
        current = await this.ledger.paymentState(paymentId);
      } catch (error) {
        if (!(
          error instanceof ProviderUnavailable ||
          error instanceof ProviderRefusal ||
          error instanceof BillingError
        ))
          throw error;
      }
    }
    const status = current.status!;
    const legacy: Record<PaymentStatus, PaymentStatusAnswer['status']> = {
      pending: 'PENDING',
      paid: 'COMPLETED',
      failed: 'FAILED',
      cancelled: 'CANCELLED',
      expired: 'EXPIRED',
      refunded: 'REFUNDED',
    };
    // A failure says why when the provider did (a balance too low, a card declined), so the payer can act on it.
    const reason = status === 'failed' ? declineReason(current.failure?.code) : null;
    return { status: legacy[status], paymentStatus: status, paymentId, ...(reason ? { reason } : {}) };
  }
}
