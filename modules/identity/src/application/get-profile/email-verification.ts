import { Injectable, Logger } from '@nestjs/common';
import { CommandContexts } from '@kora/kernel/nest';
import { IdentityProvider } from '../../ports/identity-provider';
import { AccountCommands } from '../accounts/account-commands';

/** How long the profile waits for the provider's word before answering from what it already knows. */
const PROVIDER_WAIT_MS = 3000;

/**
 * The address is verified at the identity provider (a confirmation link, a password reset by e-mail, an external
 * issuer's own check), which may happen after the account was registered. The account used to learn it only at the
 * next sign-in, so the profile kept saying "Not verified" after the link was followed. While the account says not
 * verified, the provider is asked; once it vouches for the address, `EmailVerified` is recorded.
 */
@Injectable()
export class EmailVerification {
  private readonly logger = new Logger(EmailVerification.name);

  constructor(
    private readonly provider: IdentityProvider,
    private readonly accounts: AccountCommands,
    private readonly contexts: CommandContexts,
  ) {}

  /** True when the provider now vouches for the address and the account records it (read models updated). */
  async refresh(userId: string, accessToken: string): Promise<boolean> {
    let verified: boolean;
    try {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the identity provider did not answer in time')), PROVIDER_WAIT_MS);
      });
      const person = await Promise.race([this.provider.profile(userId, accessToken), timeout]).finally(() =>
        clearTimeout(timer),
      );
      verified = person.emailVerified;
    } catch (error) {
      // The profile still answers, from the account as it stands; the next read asks again.
      this.logger.warn(`E-mail verification not checked for ${userId}: ${(error as Error).message}`);
      return false;
    }
    if (!verified) return false;
    await this.accounts.execute(userId, { type: 'ConfirmEmail' }, this.contexts.forUser(userId));
    return true;
  }
}
