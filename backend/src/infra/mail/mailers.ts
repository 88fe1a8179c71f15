import { type MailMessage, Mailer, type SentMail } from '@kora/kernel';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { AsyncMutex } from '../sqlite/async-mutex';

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  template: string;
  language: string;
  file: string;
  acceptedAt: string;
}

function envelope(from: string, message: MailMessage) {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    headers: { 'Content-Language': message.language, 'X-Kora-Template': message.template },
  };
}

/**
 * The embedded mail adapter: each message is written as a complete RFC 5322 file (`.eml`, openable by any mail
 * client) under DATA_DIR/outbox, and listed in `index.json` (newest first), which /dev/outbox shows.
 */
export class OutboxMailer extends Mailer {
  readonly kind = 'outbox';
  private readonly transport: Transporter;
  private readonly mutex = new AsyncMutex();

  constructor(
    readonly directory: string,
    private readonly from: string,
  ) {
    super();
    this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<SentMail> {
    const id = randomUUID();
    const acceptedAt = new Date().toISOString();
    const info = (await this.transport.sendMail({ ...envelope(this.from, message), messageId: `<${id}@kora>` })) as {
      message: Buffer;
    };
    const file = `${acceptedAt.replace(/[:.]/g, '-')}-${id}.eml`;
    await mkdir(this.directory, { recursive: true });
    await writeFile(join(this.directory, file), info.message);
    const entry: OutboxEntry = {
      id,
      to: message.to,
      subject: message.subject,
      template: message.template,
      language: message.language,
      file,
      acceptedAt,
    };
    await this.mutex.run(async () => {
      const index = await this.list();
      const temporary = join(this.directory, `index.json.${id}.tmp`);
      await writeFile(temporary, JSON.stringify([entry, ...index], null, 2));
      await rename(temporary, join(this.directory, 'index.json'));
    });
    return { id, acceptedAt };
  }

  async list(): Promise<OutboxEntry[]> {
    try {
      return JSON.parse(await readFile(join(this.directory, 'index.json'), 'utf8')) as OutboxEntry[];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async read(id: string): Promise<{ entry: OutboxEntry; raw: string } | null> {
    const entry = (await this.list()).find((candidate) => candidate.id === id);
    if (!entry) return null;
    return { entry, raw: await readFile(join(this.directory, entry.file), 'utf8') };
  }
}

/** Production mail: any SMTP server (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465). */
export class SmtpMailer extends Mailer {
  readonly kind = 'smtp';
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    super();
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = (await this.transport.sendMail(envelope(this.from, message))) as { messageId: string };
    return { id: info.messageId, acceptedAt: new Date().toISOString() };
  }

  close(): void {
    this.transport.close();
  }
}
