import { Injectable } from '@nestjs/common';
import { accountStream, type CommandContext, EventStore, handleCommand, ProjectionRunner } from '@kora/kernel';
import type { AccountEvent } from '../../contracts/events';
import { type AccountCommand, accountDecider, type AccountState } from '../../domain/account';
import { SessionRevocations } from '../../ports/session-revocations';

const READ_MODELS = ['profiles', 'preferences'];

/**
 * Runs an account command: load `account-{userId}`, decide, append with the expected revision. Account commands are
 * safe to decide again on fresher state, so a concurrent write is retried. By default the call returns once the
 * profile and preferences read models show the change, so the next read sees it; an appended `SessionsEnded` is
 * applied to this process's token check at once.
 */
@Injectable()
export class AccountCommands {
  constructor(
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
    private readonly revocations: SessionRevocations,
  ) {}

  async execute(
    userId: string,
    command: AccountCommand,
    context: CommandContext,
  ): Promise<{ events: AccountEvent[]; state: AccountState }> {
    const result = await handleCommand(this.store, accountStream(userId), accountDecider, command, context, {
      retries: 3,
    });
    for (const event of result.events) {
      if (event.type === 'SessionsEnded') this.revocations.ended(userId, event.data.tokensIssuedUntil);
    }
    if (result.append) await this.projections.waitFor(result.append.position, 5_000, READ_MODELS);
    return { events: result.events, state: result.state };
  }
}
