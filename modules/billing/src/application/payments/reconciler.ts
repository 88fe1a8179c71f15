import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@kora/kernel';
import { ListPendingPayments, type PaymentDocument } from '../../contracts/queries';
import { BILLING_OPTIONS, type BillingOptions } from '../billing-options';
import { Ledger } from '../ledger';
import { PeriodicPass } from '../periodic-pass';
import { PaymentRefresh } from './payment-refresh';

/**
 * Asks the providers about payments left pending: a capture whose answer was lost (or a process that died between
 * the provider's capture and our append) is recorded and granted once; a QR code nobody paid expires. Runs at start
 * and every `reconcileIntervalMs` where processors run.
 */
@Injectable()
export class PaymentReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PaymentReconciler');
  private readonly schedule = new PeriodicPass(() => this.pass());

  constructor(
    private readonly queries: QueryBus,
    private readonly ledger: Ledger,
    private readonly payments: PaymentRefresh,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.processors) this.schedule.start(this.options.reconcileIntervalMs);
  }

  onApplicationShutdown(): void {
    this.schedule.stop();
  }

  /** One pass over the pending payments; answers how many changed. */
  runOnce(): Promise<number> {
    return this.schedule.runOnce();
  }

  private async pass(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.options.reconcileMinAgeMs).toISOString();
    const pending = await this.queries.execute<ListPendingPayments, PaymentDocument[]>(
      new ListPendingPayments(before, 200),
    );
    let changed = 0;
    for (const doc of pending) {
      try {
        const state = await this.ledger.paymentState(doc._id);
        if (state.status !== 'pending') continue;
        await this.payments.refresh(doc._id, state, 'reconciler');
        if ((await this.ledger.paymentState(doc._id)).status !== 'pending') changed += 1;
      } catch (error) {
        this.logger.warn(`payment ${doc._id} could not be reconciled: ${(error as Error).message}`);
      }
    }
    return changed;
  }
}
