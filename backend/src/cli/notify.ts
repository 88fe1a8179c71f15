import '../runtime/refuse-unsupported-runtime';
import 'reflect-metadata';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { GetProfileByEmailFingerprint, type ProfileDocument } from '@kora/identity/contracts';
import { PersonalDataVault, uuidv7 } from '@kora/kernel';
import { SendNotification } from '@kora/notifications';
import { ConfigError, loadConfig } from '../config/config';
import { CLI_ROLE, cliApplication } from './cli-logger';

const USAGE = `Usage: npm run notify -- <email> --title "Title" --message "Message" [--title-fr "Titre" --message-fr "Message"]
Sends a push notification (an announcement) to one account: it appears in the bell and as a toast.`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const [email] = args;
  const title = option(args, '--title');
  const message = option(args, '--message');
  if (!email || email.startsWith('--') || !title || !message) {
    console.log(USAGE);
    return 2;
  }
  const config = loadConfig({
    ...process.env,
    ...CLI_ROLE,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const app = await cliApplication(config);
  try {
    const fingerprint = app.get(PersonalDataVault).fingerprint(email.trim().toLowerCase());
    const account = await app
      .get(QueryBus)
      .execute<GetProfileByEmailFingerprint, ProfileDocument | null>(new GetProfileByEmailFingerprint(fingerprint));
    if (!account) {
      console.error(`No account has the e-mail ${email}.`);
      return 4;
    }
    const id = await app
      .get(CommandBus)
      .execute<SendNotification, string | null>(
        new SendNotification(
          account._id,
          'ANNOUNCEMENT',
          { en: title, fr: option(args, '--title-fr') ?? title },
          { en: message, fr: option(args, '--message-fr') ?? message },
          null,
          `announcement-${uuidv7()}`,
        ),
      );
    console.log(`Sent notification ${id} to ${email}.`);
    return 0;
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
