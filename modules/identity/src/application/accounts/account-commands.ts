import { Injectable } from '@nestjs/common';
import { type CommandContext, CommandRunner, EventStore, ProjectionRunner, type RunResult } from '@kora/kernel';
import { accountStream } from '../../contracts/streams';
import type { AccountEvent } from '../../contracts/events';
import { type AccountCommand, accountDecider, type AccountState } from '../../domain/account';
import { SessionRevocations } from '../../ports/session-revocations';

/**
 * Runs an account command on `account-{userId}` with the kernel's runner. Account commands are safe to decide again
 * on fresher state, so a concurrent write is retried. By default the call returns once the profile and preferences
 * read models show the change, so the next read sees it; an appended `SessionsEnded` is applied to this process's
 * token check at once, before that wait.
 */
@Injectable()
export class AccountCommands extends CommandRunner<AccountCommand, AccountEvent, AccountState> {
  constructor(
    store: EventStore,
    projections: ProjectionRunner,
    private readonly revocations: SessionRevocations,
  ) {
    super(store, projections, {
      stream: accountStream,
      decider: accountDecider,
      retries: 3,
      readModels: ['profiles', 'preferences'],
    });
  }

  protected override async decideAndAppend(
    userId: string,
    command: AccountCommand,
    context: CommandContext,
  ): Promise<RunResult<AccountEvent, AccountState>> {
    const result = await super.decideAndAppend(userId, command, context);
    for (const event of result.events) {
      if (event.type === 'SessionsEnded') {
        this.revocations.ended(userId, event.data.tokensIssuedUntil, event.data.sessionId);
      }
    }
    return result;
  }
}
