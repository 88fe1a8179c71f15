import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OutboxMailer, SmtpMailer } from '../../src/infra/mail/mailers';
import { tempDir } from '../support/temp';

const message = {
  to: 'awa@example.sn',
  subject: 'Réinitialisez votre mot de passe',
  text: 'Bonjour Awa, voici votre lien : https://kora.example/reset?token=abc',
  html: '<p>Bonjour Awa, voici votre <a href="https://kora.example/reset?token=abc">lien</a></p>',
  language: 'fr',
  template: 'password-reset',
};

describe('OutboxMailer', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it('writes one .eml per message and lists them newest first in index.json', async () => {
    const outbox = new OutboxMailer(join(dir.path, 'outbox'), 'Kora <no-reply@kora.test>');
    const first = await outbox.send(message);
    const second = await outbox.send({
      ...message,
      to: 'moussa@example.ci',
      language: 'en',
      subject: 'Reset your password',
    });
    const index = JSON.parse(readFileSync(join(dir.path, 'outbox', 'index.json'), 'utf8'));
    expect(index.map((e: { id: string }) => e.id)).toEqual([second.id, first.id]);
    const raw = readFileSync(join(dir.path, 'outbox', index[1].file), 'utf8');
    expect(raw).toMatch(/^Content-Language: fr$/m);
    expect(raw).toMatch(/^To: awa@example\.sn$/m);
    expect(raw).toMatch(/^From: Kora <no-reply@kora\.test>$/m);
    expect(raw).toContain('multipart/alternative');
    expect((await outbox.read(first.id))?.entry.template).toBe('password-reset');
  });

  it('keeps every message when many are sent at once', async () => {
    const outbox = new OutboxMailer(join(dir.path, 'burst'), 'Kora <no-reply@kora.test>');
    await Promise.all(Array.from({ length: 25 }, (_, i) => outbox.send({ ...message, to: `u${i}@example.sn` })));
    expect(await outbox.list()).toHaveLength(25);
  });
});

describe('SmtpMailer against a local SMTP server', () => {
  const received: Array<{ from: string; to: string[]; data: string }> = [];
  let server: SMTPServer;
  let port: number;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers the message over SMTP with its envelope, language and both parts', async () => {
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'Kora <no-reply@kora.test>');
    const sent = await mailer.send(message);
    mailer.close();
    expect(sent.id).toMatch(/@/);
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('no-reply@kora.test');
    expect(received[0]!.to).toEqual(['awa@example.sn']);
    expect(received[0]!.data).toMatch(/^Content-Language: fr\r?$/m);
    expect(received[0]!.data).toContain('text/html');
  });
});
