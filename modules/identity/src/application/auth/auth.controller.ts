import { Body, Controller, Headers, HttpCode, Ip, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CodedError, RateLimiter, ReadStore, ValidationFailedError } from '@kora/kernel';
import { type AuthenticatedUser, CommandContexts, CurrentUser, Public } from '@kora/kernel/nest';
import {
  GetPreferences,
  GetProfileByEmailFingerprint,
  type PreferencesDocument,
  type ProfileDocument,
} from '../../contracts/queries';
import type { Language } from '../../contracts/events';
import { IdentityProvider } from '../../ports/identity-provider';
import { AccountCommands } from '../accounts/account-commands';
import { PersonalData } from '../accounts/personal-data';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const RESET_PER_ADDRESS = { limit: 10, windowSeconds: 60 * 60 };

export const RESET_MESSAGES: Record<Language, string> = {
  en: 'If an account exists for this address, a password reset link is on its way.',
  fr: 'Si un compte existe pour cette adresse, un lien de réinitialisation vient de lui être envoyé.',
};

class TooManyRequestsError extends CodedError {
  readonly code = 'AUTH.TOO_MANY_REQUESTS';
  readonly status = 429;
}

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  private readonly limits: RateLimiter;

  constructor(
    private readonly provider: IdentityProvider,
    private readonly accounts: AccountCommands,
    private readonly personal: PersonalData,
    private readonly contexts: CommandContexts,
    private readonly queries: QueryBus,
    reads: ReadStore,
  ) {
    this.limits = new RateLimiter(reads);
  }

  /** Ends the server side of the session: the provider's sessions and refresh tokens for this user. */
  @Post('logout')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: "End the user's sessions and revoke their refresh tokens" })
  async logout(@CurrentUser() user: AuthenticatedUser): Promise<{ ok: true }> {
    await this.provider.endSessions(user.userId);
    return { ok: true };
  }

  /**
   * Sends a password reset link. Public on purpose (the forgotten-password case), rate limited per address, and the
   * answer is the same whether or not the e-mail has an account.
   */
  @Public()
  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a password reset link; answers the same whether or not the address exists' })
  async resetPassword(
    @Body() body: { email?: unknown },
    @Ip() ip: string,
    @Headers('accept-language') acceptLanguage?: string,
  ): Promise<{ success: true; message: string }> {
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!EMAIL.test(email)) throw new ValidationFailedError({ email: 'account.security.password.emailNotFound' });
    const wait = await this.limits.hit(`reset-api:ip:${ip}`, RESET_PER_ADDRESS);
    if (wait > 0) throw new TooManyRequestsError(`Too many requests. Try again in ${Math.ceil(wait / 60)} minutes.`);
    let language: Language = (acceptLanguage ?? '').toLowerCase().startsWith('en') ? 'en' : 'fr';
    const account = await this.queries.execute<GetProfileByEmailFingerprint, ProfileDocument | null>(
      new GetProfileByEmailFingerprint(this.personal.fingerprintEmail(email)),
    );
    if (account?.status === 'active') {
      const preferences = await this.queries.execute<GetPreferences, PreferencesDocument | null>(
        new GetPreferences(account._id),
      );
      language = preferences?.language ?? language;
      await this.accounts.execute(account._id, { type: 'RequestPasswordReset' }, this.contexts.forUser(account._id));
    }
    await this.provider.requestPasswordReset(email, language);
    return { success: true, message: RESET_MESSAGES[language] };
  }

  /** Marks the account for deletion (30 days to change one's mind by signing in) and signs it out everywhere. */
  @Post('delete-account')
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Schedule the account for deletion in 30 days and end its sessions' })
  async deleteAccount(@CurrentUser() user: AuthenticatedUser): Promise<{ success: true; purgeAfter: string | null }> {
    const context = this.contexts.forUser(user.userId);
    const { state } = await this.accounts.execute(
      user.userId,
      { type: 'DeactivateAccount', via: 'delete-account', now: context.clock.now() },
      context,
    );
    await this.provider.endSessions(user.userId);
    return { success: true, purgeAfter: state.purgeAfter };
  }
}
