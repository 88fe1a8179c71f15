import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { IdentityProvider } from '../../ports/identity-provider';
import { SessionRevocations } from '../../ports/session-revocations';
import { AccountCommands } from '../accounts/account-commands';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('api/auth')
export class LogoutController {
  constructor(
    private readonly provider: IdentityProvider,
    private readonly accounts: AccountCommands,
    private readonly contexts: CommandContexts,
    private readonly revocations: SessionRevocations,
  ) {}

  /**
   * Ends the user's sessions everywhere: the provider's sessions and refresh tokens, then every access token issued
   * so far (`SessionsEnded`), which every replica refuses from then on.
   */
  @Post('logout')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'AuthController_logout',
    summary: "End the user's sessions, revoke their refresh tokens and their access tokens",
  })
  async logout(@CurrentUser() user: AuthenticatedUser): Promise<{ ok: true }> {
    // The provider first, so that no token can be issued after the cutoff.
    await this.provider.endSessions(user.userId);
    const tokensIssuedUntil = this.revocations.cutoff();
    await this.accounts.execute(
      user.userId,
      { type: 'EndSessions', reason: 'logout', tokensIssuedUntil },
      this.contexts.forUser(user.userId),
    );
    await this.revocations.settled(tokensIssuedUntil);
    return { ok: true };
  }
}
