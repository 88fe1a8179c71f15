import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser } from '@kora/kernel/nest';
import { IdentityProvider } from '../../ports/identity-provider';
import { SessionRevocations } from '../../ports/session-revocations';
import { AccountCommands } from '../accounts/account-commands';

/** The exact text the user must type to confirm. */
export const DEACTIVATION_CONFIRMATION = 'DELETE';

@ApiTags('user')
@ApiBearerAuth()
@Controller('api/user/account')
export class DeactivateController {
  constructor(
    private readonly accounts: AccountCommands,
    private readonly provider: IdentityProvider,
    private readonly contexts: CommandContexts,
    private readonly revocations: SessionRevocations,
  ) {}

  /**
   * Marks the account for deletion: signing in within 30 days restores it, after that its data is deleted for good.
   * `confirmationText` must be exactly DELETE. Every session ends, and every access token issued so far is refused.
   */
  @Post('deactivate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Schedule the account for deletion; confirmationText must be exactly DELETE' })
  async deactivate(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: { confirmationText?: unknown },
  ): Promise<{ success: true; purgeAfter: string | null }> {
    if (body?.confirmationText !== DEACTIVATION_CONFIRMATION) {
      throw new ValidationFailedError(
        { confirmationText: 'account.security.delete.confirmError' },
        'Please type DELETE to confirm',
      );
    }
    const context = this.contexts.forUser(user.userId);
    // The provider's sessions and refresh tokens first, so no token can be issued after the cutoff.
    await this.provider.endSessions(user.userId);
    const tokensIssuedUntil = this.revocations.cutoff();
    const { state } = await this.accounts.execute(
      user.userId,
      { type: 'DeactivateAccount', via: 'settings', now: context.clock.now(), tokensIssuedUntil },
      context,
    );
    await this.revocations.settled(tokensIssuedUntil);
    return { success: true, purgeAfter: state.purgeAfter };
  }
}
