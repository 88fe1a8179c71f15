import { Injectable } from '@nestjs/common';
import { CommandContexts } from '@kora/kernel/nest';
import { PaymentNotFoundError } from '../../domain/errors';
import { Grants } from '../grants';
import { Ledger } from '../ledger';

export interface AnomalyOutcome {
  paymentId: string;
  ownerId: string;
  captureId: string;
  resolution: 'grant' | 'refund';
  /** False when it was resolved already (running the command again changes nothing). */
  resolvedNow: boolean;
}

/**
 * An operator's decision on money that did not match its sale (`PaymentAnomalyDetected`): grant it (the payment is
 * captured for what the provider took and granted as any other), or record that it was refunded at the provider.
 */
@Injectable()
export class Anomalies {
  constructor(
    private readonly ledger: Ledger,
    private readonly grants: Grants,
    private readonly contexts: CommandContexts,
  ) {}

  async resolve(
    paymentId: string,
    captureId: string,
    resolution: 'grant' | 'refund',
    note: string,
    refundId: string | null = null,
  ): Promise<AnomalyOutcome> {
    const state = await this.ledger.paymentState(paymentId);
    if (!state.intent) throw new PaymentNotFoundError();
    const { events } = await this.ledger.payment(
      paymentId,
      { type: 'ResolveAnomaly', captureId, resolution, note, refundId },
      this.contexts.forSystem(state.intent.ownerId, paymentId),
    );
    if (resolution === 'grant') await this.grants.grantPayment(paymentId);
    return { paymentId, ownerId: state.intent.ownerId, captureId, resolution, resolvedNow: events.length > 0 };
  }
}
