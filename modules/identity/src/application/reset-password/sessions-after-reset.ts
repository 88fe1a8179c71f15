import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandContexts } from '@kora/kernel/nest';
import { IdentityProvider } from '../../ports/identity-provider';
import { SessionRevocations } from '../../ports/session-revocations';
import { AccountCommands } from '../accounts/account-commands';

/**
 * A password reset through the provider ends the account's sessions everywhere, its access tokens included: whoever
 * took the account over loses it with the old password. The provider has already ended its own sessions and refresh
 * tokens (so no token is issued after the cutoff); this records `SessionsEnded` (`password-reset`), which every
 * replica refuses from then on, and resolves once a token issued from now on is past the revoked second, so the user
 * can sign in with the new password at once.
 */
@Injectable()
export class SessionsAfterPasswordReset implements OnModuleInit {
  constructor(
    private readonly provider: IdentityProvider,
    private readonly accounts: AccountCommands,
    private readonly contexts: CommandContexts,
    private readonly revocations: SessionRevocations,
  ) {}

  onModuleInit(): void {
    this.provider.onPasswordReset = (userId) => this.endSessions(userId);
  }

  async endSessions(userId: string): Promise<void> {
    const tokensIssuedUntil = this.revocations.cutoff();
    await this.accounts.execute(
      userId,
      { type: 'EndSessions', reason: 'password-reset', tokensIssuedUntil },
      this.contexts.forUser(userId),
    );
    await this.revocations.settled(tokensIssuedUntil);
  }
}
