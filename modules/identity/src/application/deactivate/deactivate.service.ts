import { Injectable } from '@nestjs/common';
import type { DeactivateAnswer } from '@kora/contracts';
import { CommandContexts } from '@kora/kernel/nest';
import { IdentityProvider } from '../../ports/identity-provider';
import { SessionRevocations } from '../../ports/session-revocations';
import { AccountCommands } from '../accounts/account-commands';

/**
 * Marks the account for deletion: signing in within 30 days restores it, after that its data is deleted for good.
 * Every session ends, and every access token issued so far is refused. The one handler of both deactivation URLs;
 * `via` records which one was used.
 */
@Injectable()
export class DeactivateService {
  constructor(
    private readonly accounts: AccountCommands,
    private readonly provider: IdentityProvider,
    private readonly contexts: CommandContexts,
    private readonly revocations: SessionRevocations,
  ) {}

  async deactivate(userId: string, via: 'settings' | 'delete-account'): Promise<DeactivateAnswer> {
    const context = this.contexts.forUser(userId);
    // The provider's sessions and refresh tokens first, so no token can be issued after the cutoff.
    await this.provider.endSessions(userId);
    const tokensIssuedUntil = this.revocations.cutoff();
    const { state } = await this.accounts.execute(
      userId,
      { type: 'DeactivateAccount', via, now: context.clock.now(), tokensIssuedUntil },
      context,
    );
    await this.revocations.settled(tokensIssuedUntil);
    return { success: true, purgeAfter: state.purgeAfter };
  }
}
