import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, type Clock, PersonalDataVault } from '@kora/kernel';
import { CommandContexts } from '@kora/kernel/nest';
import { GetAccountsDueForPurge, type ProfileDocument } from '../../contracts/queries';
import { IdentityProvider } from '../../ports/identity-provider';
import { SessionRevocations } from '../../ports/session-revocations';
import { AccountCommands } from '../accounts/account-commands';

export const IDENTITY_OPTIONS = Symbol.for('kora.identity.options');

export interface IdentityOptions {
  /** How often the purge looks for accounts whose 30 days are over; 0 disables the schedule. */
  readonly purgeIntervalMs: number;
}

const BATCH = 100;

/**
 * Deletes, for good, accounts whose reactivation window has closed: first the account's data key (every sealed
 * value in the log becomes unreadable), then its credentials at the provider, then `AccountPurged` (with
 * `SessionsEnded`: no access token issued before it works any more), on which every read model drops the account.
 * Each step is idempotent, so a purge interrupted at any point completes at the next run. In a cluster every
 * replica may run it: the decider and the expected revision let only one append win.
 */
@Injectable()
export class AccountPurger implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AccountPurger.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly queries: QueryBus,
    private readonly vault: PersonalDataVault,
    private readonly provider: IdentityProvider,
    private readonly accounts: AccountCommands,
    private readonly contexts: CommandContexts,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
    private readonly revocations: SessionRevocations,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.purgeIntervalMs <= 0) return;
    this.timer = setInterval(
      () => void this.runOnce().catch((error: unknown) => this.logger.error(error)),
      this.options.purgeIntervalMs,
    );
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Purges every account that is due now; returns how many. */
  runOnce(): Promise<number> {
    this.running ??= this.purgeDue().finally(() => (this.running = null));
    return this.running;
  }

  private async purgeDue(): Promise<number> {
    let purged = 0;
    for (;;) {
      const now = this.clock.now();
      const due = await this.queries.execute<GetAccountsDueForPurge, ProfileDocument[]>(
        new GetAccountsDueForPurge(now.toISOString(), BATCH),
      );
      if (due.length === 0) return purged;
      for (const account of due) {
        await this.vault.forget(account._id);
        await this.provider.deleteUser(account._id);
        await this.accounts.execute(
          account._id,
          { type: 'PurgeAccount', now, tokensIssuedUntil: this.revocations.cutoff() },
          this.contexts.forSystem(account._id, `purge-${account._id}`),
        );
        purged += 1;
        this.logger.log(`account ${account._id} purged`);
      }
    }
  }
}
