import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { IdentityProvider, SignUpService } from '@kora/identity';
import pino from 'pino';
import { AppModule } from '../app.module';
import { ConfigError, loadConfig } from '../config/config';
import { BuiltInIdentityProvider } from '../identity-provider/built-in-provider';
import { EmailTakenError, PASSWORD_MAX, PASSWORD_MIN } from '../identity-provider/idp-store';

const USAGE = `Usage:
  npm run users -- create <email> <password> [--first-name X --last-name Y] [--language en|fr]
      creates a user of the built-in provider, with a registered account and a confirmed e-mail
  npm run users -- token <email> [--minutes 60]
      prints an access token for the API (for scripts and support)
Both need the built-in provider: they are refused when OIDC_ISSUER_URL names an external issuer.`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (command !== 'create' && command !== 'token') {
    console.log(USAGE);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  const config = loadConfig({
    ...process.env,
    PROJECTIONS: 'on',
    WORKERS: '0',
    PROCESSORS: 'off',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  if (!config.embedded.identity) {
    console.error(`Refused: the API trusts the external issuer ${config.oidc.issuer}; manage its users there.`);
    return 3;
  }
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, pino({ level: config.LOG_LEVEL })), {
    logger: ['error', 'warn'],
  });
  try {
    const provider = app.get(IdentityProvider);
    if (!(provider instanceof BuiltInIdentityProvider)) throw new Error('built-in provider expected');
    const email = args[0];
    if (!email) {
      console.log(USAGE);
      return 2;
    }
    if (command === 'create') {
      const password = args[1] ?? '';
      if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
        console.error(`The password needs ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
        return 2;
      }
      const language = option(args, '--language') === 'en' ? 'en' : 'fr';
      const user = await provider.users.create({
        email,
        password,
        givenName: option(args, '--first-name') ?? email.split('@')[0]!,
        familyName: option(args, '--last-name') ?? '',
        locale: language,
        emailVerified: true,
      });
      await app.get(SignUpService).register(user._id, await provider.profile(user._id), language);
      console.log(`Created ${user.email} (${user._id}).`);
      return 0;
    }
    const user = await provider.users.findByEmail(email);
    if (!user) {
      console.error(`No user ${email} in the built-in provider.`);
      return 4;
    }
    const minutes = Number(option(args, '--minutes') ?? 60);
    console.log(await provider.signAccessToken(user._id, minutes, config.oidc.clientId, config.oidc.audience));
    return 0;
  } catch (error) {
    if (error instanceof EmailTakenError) {
      console.error(`A user already has the e-mail ${error.message}.`);
      return 5;
    }
    throw error;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
