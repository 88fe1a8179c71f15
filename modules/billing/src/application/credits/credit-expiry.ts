import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@kora/kernel';
import { CommandContexts } from '@kora/kernel/nest';
import { type CreditAccountDocument, ListExpiringCreditAccounts } from '../../contracts/queries';
import { BILLING_OPTIONS, type BillingOptions } from '../billing-options';
import { Ledger } from '../ledger';
import { PeriodicPass } from '../periodic-pass';

const BATCH = 200;

/**
 * Appends `CreditsExpired` for the credits a pack still holds once its end date has passed. A scan, not timers: each
 * pass asks the read model for the accounts whose earliest ending pack with credits left is due (by the injected
 * clock), and the credits decider expires what is due on each account's own stream, so a pass is idempotent (a pack
 * already expired holds nothing more) and nothing is lost across restarts (the next pass finds what is due). Runs at
 * start and every `expiryIntervalMs` where processors run.
 */
@Injectable()
export class CreditExpiry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CreditExpiry');
  private readonly schedule = new PeriodicPass(() => this.pass());

  constructor(
    private readonly queries: QueryBus,
    private readonly ledger: Ledger,
    private readonly contexts: CommandContexts,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.processors) this.schedule.start(this.options.expiryIntervalMs ?? 60_000);
  }

  onApplicationShutdown(): void {
    this.schedule.stop();
  }

  /** One pass; answers how many `CreditsExpired` were appended. */
  runOnce(): Promise<number> {
    return this.schedule.runOnce();
  }

  private async pass(): Promise<number> {
    const now = this.clock.now().toISOString();
    let expired = 0;
    const seen = new Set<string>();
    for (;;) {
      const due = await this.queries.execute<ListExpiringCreditAccounts, CreditAccountDocument[]>(
        new ListExpiringCreditAccounts(now, BATCH),
      );
      const fresh = due.filter((account) => !seen.has(account._id));
      if (fresh.length === 0) return expired;
      for (const account of fresh) {
        seen.add(account._id);
        try {
          const { events } = await this.ledger.credits(
            account._id,
            { type: 'ExpireCredits', now },
            this.contexts.forSystem(account._id, `credit-expiry-${now}`),
          );
          expired += events.length;
        } catch (error) {
          this.logger.warn(`credits of ${account._id} could not be expired: ${(error as Error).message}`);
        }
      }
      if (due.length < BATCH) return expired;
    }
  }
}
