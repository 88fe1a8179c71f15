import '../runtime/refuse-unsupported-runtime';
import 'reflect-metadata';
import { IdentityProvider, SignUpService } from '@kora/identity';
import { join } from 'node:path';
import { type Config, ConfigError, loadConfig } from '../config/config';
import { readServerInfo, SERVER_INFO_FILE } from '../config/server-info';
import { BuiltInIdentityProvider } from '../identity-provider/built-in-provider';
import { EmailTakenError, normaliseEmail, PASSWORD_MAX, PASSWORD_MIN } from '../identity-provider/idp-store';
import { OutboxMailer } from '../infra/mail/mailers';
import { CLI_ROLE, cliApplication } from './cli-logger';

const USAGE = `Usage:
  npm run users -- create <email> <password> [--first-name X --last-name Y] [--language en|fr]
      creates a user of the built-in provider, with a registered account and a confirmed e-mail
  npm run users -- token <email> [--minutes 60]
      prints an access token for the API (for scripts and support)
  npm run users -- outbox [<email>] [--last 5]
      prints the newest mails of the outbox under DATA_DIR/outbox (to <email> only when given), links included
create and token need the built-in provider: they are refused when OIDC_ISSUER_URL names an external issuer.
Run them with the server's DATA_DIR: the token carries the issuer of the server last started there
(DATA_DIR/server.json), else the one PUBLIC_URL or PORT give.`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

/**
 * The configuration of this command: the environment, with the address, issuer and audience of the server last
 * started on the same DATA_DIR (`DATA_DIR/server.json`) when there is one, so a token carries the issuer the server
 * checks whatever PORT or PUBLIC_URL this command is given.
 */
function cliConfig(): Config {
  const env = {
    ...process.env,
    PROJECTIONS: 'on',
    ...CLI_ROLE,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const own = loadConfig(env);
  const server = readServerInfo(own.DATA_DIR);
  if (!server) return own;
  const config = loadConfig({
    ...env,
    PUBLIC_URL: server.publicUrl,
    OIDC_ISSUER_URL: server.provider === 'external' ? server.issuer : undefined,
    OIDC_AUDIENCE: server.audience,
    OIDC_CLIENT_ID: server.clientId,
  });
  if (config.oidc.issuer !== own.oidc.issuer || config.oidc.audience !== own.oidc.audience) {
    console.error(
      `Using the issuer of the server started on ${own.DATA_DIR} (${config.oidc.issuer}, from ${SERVER_INFO_FILE}).`,
    );
  }
  return config;
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'outbox') return printOutbox(args);
  if (command !== 'create' && command !== 'token') {
    console.log(USAGE);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  const config = cliConfig();
  if (!config.embedded.identity) {
    console.error(`Refused: the API trusts the external issuer ${config.oidc.issuer}; manage its users there.`);
    return 3;
  }
  const app = await cliApplication(config);
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

/** `outbox [<email>] [--last N]`: the mails the embedded outbox holds, newest first, with their text. */
async function printOutbox(args: string[]): Promise<number> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const last = Number(option(args, '--last') ?? 5);
  if (!Number.isInteger(last) || last < 1) {
    console.error('--last needs a whole number of mails.');
    return 2;
  }
  const to = args[0] && !args[0].startsWith('--') ? normaliseEmail(args[0]) : null;
  if (!config.embedded.mail) console.error('Mail goes out through SMTP_URL: the outbox holds only older mails.');
  const outbox = new OutboxMailer(join(config.DATA_DIR, 'outbox'), config.MAIL_FROM);
  const entries = (await outbox.list()).filter((entry) => to === null || entry.to === to).slice(0, last);
  if (entries.length === 0) {
    console.log(to ? `No mail to ${to} in the outbox.` : 'The outbox is empty.');
    return 0;
  }
  for (const entry of entries) {
    const found = await outbox.read(entry.id);
    console.log(`--- ${entry.acceptedAt}  to ${entry.to}  [${entry.template}, ${entry.language}]`);
    console.log(`Subject: ${entry.subject}\n`);
    console.log(found ? mailText(found.raw) : '(the message file is missing)');
    console.log('');
  }
  return 0;
}

/** The text part of a message as the outbox wrote it (nodemailer: quoted-printable, base64 or plain). */
function mailText(raw: string): string {
  const lines = raw.replace(/\r\n/g, '\n').split('\n');
  let index = Math.max(
    0,
    lines.findIndex((line) => /^content-type:\s*text\/plain/i.test(line)),
  );
  let encoding = '7bit';
  for (; index < lines.length && lines[index] !== ''; index += 1) {
    const match = /^content-transfer-encoding:\s*(\S+)/i.exec(lines[index]!);
    if (match) encoding = match[1]!.toLowerCase();
  }
  const body: string[] = [];
  for (index += 1; index < lines.length && !lines[index]!.startsWith('--'); index += 1) body.push(lines[index]!);
  const text = body.join('\n');
  if (encoding === 'base64') return Buffer.from(text, 'base64').toString('utf8').trim();
  if (encoding !== 'quoted-printable') return text.trim();
  const decoded = text
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(decoded, 'latin1').toString('utf8').trim();
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
