import { Injectable } from '@nestjs/common';
import { CommandContexts } from '@kora/kernel/nest';
import type { Language } from '../../contracts/events';
import { detectCurrency } from '../../domain/validation';
import { IdentityProvider, type ProviderProfile } from '../../ports/identity-provider';
import { AccountCommands } from '../accounts/account-commands';
import { PersonalData } from '../accounts/personal-data';
import { ReactivateAccountService } from '../reactivate-account/reactivate-account.service';

export interface SignUpResult {
  ok: true;
  /** True the first time: the account was just registered. */
  registered: boolean;
  /** True when the sign-in restored an account that was scheduled for deletion. */
  reactivated: boolean;
}

/**
 * Registers the person the provider vouched for. The first call records `AccountRegistered`; later calls change
 * nothing, except that signing in within 30 days of a deactivation restores the account (reactivate-account/).
 */
@Injectable()
export class SignUpService {
  constructor(
    private readonly provider: IdentityProvider,
    private readonly accounts: AccountCommands,
    private readonly personal: PersonalData,
    private readonly contexts: CommandContexts,
    private readonly reactivation: ReactivateAccountService,
  ) {}

  /** `acceptLanguage` is the browser's Accept-Language: it picks the first language and currency. */
  async register(userId: string, person: ProviderProfile, acceptLanguage?: string): Promise<SignUpResult> {
    const context = this.contexts.forUser(userId);
    if (await this.reactivation.reactivate(userId, context)) return { ok: true, registered: false, reactivated: true };
    const email = person.email.trim().toLowerCase();
    const [given, ...rest] = (person.name ?? '').split(/\s+/).filter(Boolean);
    const firstName = person.givenName ?? given ?? email.split('@')[0]!;
    const lastName = person.familyName ?? rest.join(' ');
    const firstTag = (acceptLanguage ?? '').split(',')[0]?.split(';')[0]?.trim();
    const base = (person.locale ?? firstTag ?? '').toLowerCase().split(/[-_]/)[0];
    const language: Language = base === 'en' ? 'en' : 'fr';
    const { events } = await this.accounts.execute(
      userId,
      {
        type: 'RegisterAccount',
        userId,
        email: await this.personal.seal(userId, email),
        emailFingerprint: this.personal.fingerprintEmail(email),
        firstName: await this.personal.seal(userId, firstName),
        lastName: await this.personal.seal(userId, lastName),
        emailVerified: person.emailVerified,
        issuer: this.provider.issuer,
        preferences: {
          notificationSettings: { emailNotifications: true, marketingEmails: false, newFeatures: true },
          language,
          currency: detectCurrency(firstTag, undefined),
        },
        now: context.clock.now(),
      },
      context,
    );
    return {
      ok: true,
      registered: events.some((event) => event.type === 'AccountRegistered'),
      reactivated: events.some((event) => event.type === 'AccountReactivated'),
    };
  }
}
