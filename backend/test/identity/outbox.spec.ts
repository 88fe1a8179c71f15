import { AfterResponse } from '@kora/identity';
import { Mailer } from '@kora/kernel';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { OutboxMailer } from '../../src/infra/mail/mailers';
import { registeredUser } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

const USERS = join(__dirname, '..', '..', 'dist', 'cli', 'users.js');
const OPS_TOKEN = 'ops-token-for-the-outbox-test';
const run = promisify(execFile);

describe('the development outbox', () => {
  let test: TestApp;
  let mailId: string;
  beforeAll(async () => {
    // Behind a reverse proxy on the same host: every request arrives from 127.0.0.1.
    test = await startTestApp({ realAuth: true, env: { TRUST_PROXY: '1', OPS_TOKEN } });
    await registeredUser(test, { email: 'awa@example.sn' });
    await request(test.url).post('/api/auth/reset-password').send({ email: 'awa@example.sn' }).expect(200);
    await test.app.get(AfterResponse).idle();
    const [mail] = await (test.app.get(Mailer) as OutboxMailer).list();
    expect(mail).toMatchObject({ to: 'awa@example.sn', template: 'password-reset' });
    mailId = mail!.id;
  });
  afterAll(() => test.close());

  it('is refused without DEV_OUTBOX, even from 127.0.0.1 and whatever the forwarded headers say', async () => {
    for (const headers of [
      {},
      { 'X-Forwarded-For': '127.0.0.1' },
      { 'X-Forwarded-For': '::1', 'X-Real-IP': '127.0.0.1', Accept: 'text/html' },
      { Authorization: 'Bearer not-the-token' },
    ]) {
      await request(test.url).get('/dev/outbox').set(headers).expect(404);
      await request(test.url).get(`/dev/outbox/${mailId}`).set(headers).expect(404);
    }
  });

  it("answers the operators' token", async () => {
    const listed = await request(test.url)
      .get('/dev/outbox')
      .set({ Authorization: `Bearer ${OPS_TOKEN}`, Accept: 'application/json' })
      .expect(200);
    expect(listed.body[0]).toMatchObject({ id: mailId, to: 'awa@example.sn' });
    await request(test.url)
      .get(`/dev/outbox/${mailId}`)
      .set({ Authorization: `Bearer ${OPS_TOKEN}` })
      .expect(200);
  });

  it('is printed by `npm run users -- outbox <email>`, links included', async () => {
    const env = { PATH: process.env.PATH ?? '', DATA_DIR: test.dataDir };
    const { stdout } = await run(process.execPath, [USERS, 'outbox', 'AWA@example.sn'], { env });
    expect(stdout).toContain('to awa@example.sn  [password-reset, fr]');
    expect(stdout).toContain('Subject: Réinitialisez votre mot de passe Kora');
    expect(stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/oidc\/reset\/[A-Za-z0-9_-]+\?lang=fr/);
    const none = await run(process.execPath, [USERS, 'outbox', 'nobody@example.sn'], { env });
    expect(none.stdout.trim()).toBe('No mail to nobody@example.sn in the outbox.');
  });

  it('is open with DEV_OUTBOX=on (a development machine, a test run)', async () => {
    const dev = await startTestApp({ realAuth: true, env: { DEV_OUTBOX: 'on' } });
    try {
      await request(dev.url).get('/dev/outbox').set('Accept', 'application/json').expect(200);
    } finally {
      await dev.close();
    }
  });
});
