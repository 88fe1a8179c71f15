import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { IdentityProvider } from '../../ports/identity-provider';
import { SessionRevocations } from '../../ports/session-revocations';
import { AccountCommands } from '../accounts/account-commands';
import { DecidesOnAccountState } from '../accounts/active-account.guard';

@ApiTags('auth')
@ApiBearerAuth()
@DecidesOnAccountState()
@Controller('api/auth')
export class LogoutController {
  constructor(
    private readonly provider: IdentityProvider,
    private readonly accounts: AccountCommands,
    private readonly contexts: CommandContexts,
    private readonly revocations: SessionRevocations,
  ) {}

  /**
   * Ends this device's session: its refresh tokens at the provider, then every access token carrying its id (`sid`),
   * which every replica refuses from then on. The account's other devices stay signed in. A token without a session
   * id (an external issuer that puts none in its access tokens) cannot be told from the others: then every session
   * ends, as when signing out everywhere.
   */
  @Post('logout')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'AuthController_logout',
    summary: "End this device's session: its refresh tokens and its access tokens (the other devices stay signed in)",
  })
  async logout(@CurrentUser() user: AuthenticatedUser): Promise<{ ok: true; everywhere: boolean }> {
    const { sid } = user.claims;
    if (typeof sid !== 'string' || sid === '') return { ...(await this.endEverywhere(user)), everywhere: true };
    // The provider first, so that the session issues no token after the cutoff.
    await this.provider.endSession(user.userId, sid);
    await this.accounts.execute(
      user.userId,
      { type: 'EndSessions', reason: 'logout', tokensIssuedUntil: this.revocations.cutoff(), sessionId: sid },
      this.contexts.forUser(user.userId),
    );
    return { ok: true, everywhere: false };
  }

  /**
   * Ends the user's sessions everywhere: the provider's sessions and refresh tokens, then every access token issued
   * so far (`SessionsEnded`), which every replica refuses from then on.
   */
  @Post('logout-everywhere')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'AuthController_logoutEverywhere',
    summary: "End the user's sessions on every device: their refresh tokens and their access tokens",
  })
  async logoutEverywhere(@CurrentUser() user: AuthenticatedUser): Promise<{ ok: true; everywhere: boolean }> {
    return { ...(await this.endEverywhere(user)), everywhere: true };
  }

  private async endEverywhere(user: AuthenticatedUser): Promise<{ ok: true }> {
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
