import { Body, Controller, Headers, HttpCode, Ip, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RateLimiter, ReadStore, ValidationFailedError } from '@kora/kernel';
import { CommandContexts, Public } from '@kora/kernel/nest';
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
import { AfterResponse } from '../accounts/after-response';
import { DecidesOnAccountState } from '../accounts/active-account.guard';
import { TooManyResetsError } from '../../domain/errors';
import type { FieldCode, PasswordResetAnswer, PasswordResetRequest, Unchecked } from '@kora/contracts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/** The code put in `fields` for an address that cannot be one. */
export const RESET_PASSWORD_FIELD_CODES = { invalidEmail: 'AUTH.INVALID_EMAIL' } as const satisfies Record<
  string,
  FieldCode
>;
const RESET_PER_ADDRESS = { limit: 10, windowSeconds: 60 * 60 };

export const RESET_MESSAGES: Record<Language, string> = {
  en: 'If an account exists for this address, a password reset link is on its way.',
  fr: 'Si un compte existe pour cette adresse, un lien de réinitialisation vient de lui être envoyé.',
};

/**
 * The language of an answer: the interface's choice (`language` in the body), else the first of English or French
 * in Accept-Language, else French. Never the account's, which would tell that the address has one.
 */
export function requestLanguage(chosen: unknown, acceptLanguage: string | undefined): Language {
  if (chosen === 'en' || chosen === 'fr') return chosen;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const base = part.split(';')[0]!.trim().toLowerCase().split('-')[0];
    if (base === 'en' || base === 'fr') return base;
  }
  return 'fr';
}

@ApiTags('auth')
@DecidesOnAccountState()
@Controller('api/auth')
export class ResetPasswordController {
  private readonly limits: RateLimiter;

  constructor(
    private readonly provider: IdentityProvider,
    private readonly accounts: AccountCommands,
    private readonly personal: PersonalData,
    private readonly contexts: CommandContexts,
    private readonly queries: QueryBus,
    private readonly afterResponse: AfterResponse,
    reads: ReadStore,
  ) {
    this.limits = new RateLimiter(reads);
  }

  /**
   * Sends a password reset link. Public on purpose (the forgotten-password case), rate limited per address. The
   * answer (status, body, language) and its timing are the same whether or not the e-mail has an account: the
   * lookup and the mail happen after it.
   */
  @Public()
  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'AuthController_resetPassword',
    summary: 'Send a password reset link; answers the same whether or not the address exists',
  })
  async resetPassword(
    @Body() body: Unchecked<PasswordResetRequest>,
    @Ip() ip: string,
    @Headers('accept-language') acceptLanguage?: string,
  ): Promise<PasswordResetAnswer> {
    const language = requestLanguage(body?.language, acceptLanguage);
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!EMAIL.test(email)) throw new ValidationFailedError({ email: RESET_PASSWORD_FIELD_CODES.invalidEmail });
    const wait = await this.limits.hit(`reset-api:ip:${ip}`, RESET_PER_ADDRESS);
    if (wait > 0) throw new TooManyResetsError(Math.ceil(wait / 60));
    this.afterResponse.run('password reset request', () => this.sendReset(email, language));
    return { success: true, message: RESET_MESSAGES[language] };
  }

  /** Records the request on an active account and has the provider mail the link (in the account's language). */
  private async sendReset(email: string, requested: Language): Promise<void> {
    let language = requested;
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
  }
}
