import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { IdentityProvider, SessionRevocations } from '@kora/identity';
import { CLOCK, type Clock, Mailer, PersonalDataVault, ReadStore } from '@kora/kernel';
import { createLocalJWKSet } from 'jose';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { OidcTokenVerifier } from '../auth/oidc-token-verifier';
import { RevokedSessions } from '../auth/revoked-sessions';
import { TokenVerifier } from '../auth/token-verifier';
import { CONFIG, type Config } from '../config/config';
import { OutboxMailer, SmtpMailer } from '../infra/mail/mailers';
import { persistentSecret } from '../infra/secrets';
import { KeyVault } from '../infra/vault/key-vault';
import { LOGGER } from '../observability/logger';
import { AuthConfigController } from './auth-config.controller';
import { BuiltInIdentityProvider } from './built-in-provider';
import { ExternalIdentityProvider } from './external-provider';
import { OutboxController } from './outbox.controller';

/** The master key that wraps every account's data key: ENCRYPTION_KEY, or one generated under DATA_DIR/secrets. */
export function masterKey(config: Config): Buffer {
  return persistentSecret(config.DATA_DIR, 'master.key', config.ENCRYPTION_KEY);
}

export function createMailer(config: Config): Mailer {
  return config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : new OutboxMailer(join(config.DATA_DIR, 'outbox'), config.MAIL_FROM);
}

@Injectable()
class IdentityLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(IdentityProvider) private readonly provider: IdentityProvider,
    @Inject(Mailer) private readonly mailer: Mailer,
  ) {}

  /** Mails the provider sends after its answers go out before the stores close. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.provider instanceof BuiltInIdentityProvider) await this.provider.idle();
  }

  onApplicationShutdown(): void {
    if (this.provider instanceof BuiltInIdentityProvider) this.provider.close();
    if (this.mailer instanceof SmtpMailer) this.mailer.close();
  }
}

/**
 * Identity infrastructure: the mail adapter, the personal-data vault, the identity provider (built-in at /oidc
 * unless OIDC_ISSUER_URL names another issuer), the token verifier that trusts it and the list of ended sessions
 * whose tokens no longer count.
 */
@Global()
@Module({})
export class IdentityProviderModule {
  /** `verifier` replaces the token verifier (tests of the spine that sign their own tokens). */
  static forRoot(options: { verifier?: TokenVerifier } = {}): DynamicModule {
    return {
      module: IdentityProviderModule,
      controllers: [AuthConfigController, OutboxController],
      providers: [
        { provide: Mailer, inject: [CONFIG], useFactory: createMailer },
        {
          provide: PersonalDataVault,
          inject: [CONFIG, ReadStore],
          useFactory: (config: Config, reads: ReadStore) => new KeyVault(reads, masterKey(config)),
        },
        {
          provide: IdentityProvider,
          inject: [CONFIG, ReadStore, Mailer, LOGGER, CLOCK],
          useFactory: async (config: Config, reads: ReadStore, mailer: Mailer, logger: Logger, clock: Clock) => {
            if (!config.embedded.identity) return new ExternalIdentityProvider(config.oidc.issuer, logger);
            const provider = new BuiltInIdentityProvider(config, reads, mailer, logger, () => clock.now().getTime());
            await provider.init();
            return provider;
          },
        },
        {
          provide: TokenVerifier,
          inject: [CONFIG, IdentityProvider],
          useFactory: (config: Config, provider: IdentityProvider) => {
            if (options.verifier) return options.verifier;
            return provider instanceof BuiltInIdentityProvider
              ? new OidcTokenVerifier(config.oidc.issuer, config.oidc.audience, createLocalJWKSet(provider.jwks))
              : new OidcTokenVerifier(config.oidc.issuer, config.oidc.audience);
          },
        },
        RevokedSessions,
        { provide: SessionRevocations, useExisting: RevokedSessions },
        IdentityLifecycle,
      ],
      exports: [Mailer, PersonalDataVault, IdentityProvider, TokenVerifier, RevokedSessions, SessionRevocations],
    };
  }
}
