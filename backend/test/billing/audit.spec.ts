import { EventStore } from '@kora/kernel';
import { creditsStream, type PaymentDocument, paymentStream } from '@kora/billing/contracts';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tempDir } from '../support/temp';
import { startTestApp, type TestApp } from '../support/test-app';
import { AUDIT_CLI, buyPackOverHttp, eventsOf, orangeMoneyTrackIntent, runCli, seedTrack } from './billing-support';

describe('npm run audit over a log made by the HTTP flows', () => {
  const dir = tempDir('kora-audit-');
  let test: TestApp;
  let awa: { auth: { Authorization: string }; userId: string };
  let packPaymentId: string;

  beforeAll(async () => {
    test = await startTestApp({ dataDir: dir.path });
    awa = { userId: 'awa-audit', auth: { Authorization: `Bearer ${await test.token('awa-audit')}` } };
    const kofi = { userId: 'kofi-audit', auth: { Authorization: `Bearer ${await test.token('kofi-audit')}` } };
    // A pack bought with PayPal, two credits spent on unlocks.
    packPaymentId = (await buyPackOverHttp(test.url, awa.auth)).paymentId;
    for (let i = 0; i < 2; i += 1) {
      const trackId = await seedTrack(test, awa.userId);
      await request(test.url)
        .post(`/api/audio/track/${trackId}/master`)
        .set(awa.auth)
        .send({ credit: true })
        .expect(200);
    }
    // One track paid with Orange Money in XOF.
    const trackId = await seedTrack(test, kofi.userId, 'STEM_SEPARATION');
    const intent = await orangeMoneyTrackIntent(test.url, kofi.auth, trackId);
    await request(test.url).post(`/sandbox/orange-money/payments/${intent.body.paymentId}/pay`).send({}).expect(200);
    await request(test.url)
      .post('/api/payments/status')
      .set(kofi.auth)
      .send({ paymentIntentId: intent.body.paymentId })
      .expect(200);
    // A payment left pending and one declined: neither is revenue.
    await request(test.url)
      .post('/api/payments/createIntent')
      .set(kofi.auth)
      .send({ provider: 'PAYPAL', currency: 'EUR', planId: 'stems-starter' })
      .expect(201);
    await test.close();
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('passes: exit 0, revenue by currency and provider, balances by account', async () => {
    const { code, stdout, stderr } = await runCli(AUDIT_CLI, dir.path);
    expect(stderr).toBe('');
    expect({ [stdout]: code }).toEqual({ [stdout]: 0 });
    expect(stdout).toContain('No violation');
    expect(stdout).toContain('| USD | PAYPAL | 1 | 19.99 | 0 | 0.00 | 19.99 |');
    expect(stdout).toContain('| XOF | ORANGE_MONEY | 1 | 4500 | 0 | 0 | 4500 |');
    expect(stdout).toContain('| awa-audit | AI_MASTERING | 5 | 2 | 0 | 0 | 3 | 3 |');
  });

  it('--account, --csv and a --from after every sale', async () => {
    const mine = await runCli(AUDIT_CLI, dir.path, ['--account', 'kofi-audit', '--csv']);
    expect(mine.code).toBe(0);
    const lines = mine.stdout.split('\n');
    expect(lines).toContain('revenue,XOF,ORANGE_MONEY,1,4500,0,0,4500');
    expect(lines.some((line) => line.includes('USD'))).toBe(false);
    const later = await runCli(AUDIT_CLI, dir.path, ['--from', '2999-01-01', '--csv']);
    expect(later.stdout.split('\n').filter((line) => line.startsWith('revenue,'))).toEqual([]);
    const bad = await runCli(AUDIT_CLI, dir.path, ['--from', 'yesterday-ish']);
    expect(bad.code).toBe(2);
  });

  it('fails on a log seeded with a double grant: exit 1, naming the events', async () => {
    const { openStores, closeStores } = await import('../../src/infra/infra.module');
    const { loadConfig } = await import('../../src/config/config');
    const stores = await openStores(loadConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'silent' }));
    const duplicateId = randomUUID();
    try {
      const [grant] = (await stores.events.readStream(creditsStream(awa.userId))).filter(
        (e) => e.type === 'PackPurchased',
      );
      expect(grant).toBeDefined();
      // The same payment granted a second time, as a grant that skipped the decider would.
      await stores.events.append(
        creditsStream(awa.userId),
        [
          {
            id: duplicateId,
            type: 'PackPurchased',
            data: { ...(grant!.data as object), balance: 8 },
            metadata: grant!.metadata,
          },
        ],
        'any',
      );
    } finally {
      await closeStores(stores);
    }
    const { code, stdout } = await runCli(AUDIT_CLI, dir.path);
    expect(code).toBe(1);
    expect(stdout).toContain('[grant.twice]');
    expect(stdout).toContain(`payment ${packPaymentId} is granted 2 times`);
    expect(stdout).toContain(`PackPurchased ${duplicateId}`);
  });
});

describe('the audit in the test app', () => {
  it('is clean right after the billing flows and sees events, not read models', async () => {
    const test = await startTestApp();
    try {
      const auth = { Authorization: `Bearer ${await test.token('ama-audit')}` };
      await buyPackOverHttp(test.url, auth, 'enhancement-starter');
      const { runAudit } = await import('../../src/cli/audit-run');
      const result = await runAudit(
        test.app.get(EventStore),
        test.app.get((await import('@kora/kernel')).ReadStore),
        {},
      );
      expect(result.report.violations).toEqual([]);
      expect(result.differences).toEqual([]);
      expect(result.report.events).toBe(
        (await eventsOf(test, ['PaymentIntentCreated', 'PaymentCaptured', 'PackPurchased'])).length,
      );
    } finally {
      await test.close();
    }
  });

  it('names each read-model document that differs from the replay, with the last event that changed it', async () => {
    const test = await startTestApp();
    try {
      const userId = 'sena-audit';
      const { paymentId } = await buyPackOverHttp(test.url, {
        Authorization: `Bearer ${await test.token(userId)}`,
      });
      const { runAudit } = await import('../../src/cli/audit-run');
      const { ReadStore } = await import('@kora/kernel');
      const events = test.app.get(EventStore);
      const reads = test.app.get(ReadStore);
      expect((await runAudit(events, reads, {})).differences).toEqual([]);
      // The payment shown refunded, and the account's credits gone, behind the projections' back.
      const payments = reads.collection<PaymentDocument>('payments');
      await payments.upsert({ ...(await payments.findById(paymentId))!, status: 'refunded' });
      expect(await reads.collection('credit_accounts').deleteById(userId)).toBe(true);
      const lastOf = async (stream: string) => {
        const event = (await events.readStream(stream)).at(-1)!;
        return { id: event.id, type: event.type, streamName: stream, position: event.position };
      };
      const { differences, report } = await runAudit(events, reads, {});
      expect(report.violations).toEqual([]);
      expect(differences).toEqual([
        {
          readModel: 'payments',
          collection: 'payments',
          id: paymentId,
          problem: 'different',
          lastEvent: await lastOf(paymentStream(paymentId)),
        },
        {
          readModel: 'credit-accounts',
          collection: 'credit_accounts',
          id: userId,
          problem: 'missing',
          lastEvent: { ...(await lastOf(creditsStream(userId))), type: 'PackPurchased' },
        },
      ]);
    } finally {
      await test.close();
    }
  });
});

describe('the ledger’s trail under concurrency', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp();
  }, 60_000);
  afterAll(() => test?.close());

  const audit = async () => {
    const { runAudit } = await import('../../src/cli/audit-run');
    const { ReadStore } = await import('@kora/kernel');
    return runAudit(test.app.get(EventStore), test.app.get(ReadStore), {});
  };
  const unlock = (auth: { Authorization: string }, trackId: string) =>
    request(test.url).post(`/api/audio/track/${trackId}/master`).set(auth).send({ credit: true });
  const spendsOf = async (userId: string) =>
    (await eventsOf(test, ['CreditSpent'])).filter((e) => e.streamName === creditsStream(userId));

  it('50 concurrent unlocks of one track spend one credit, and every unlock names that spend', async () => {
    const userId = 'one-track-race';
    const auth = { Authorization: `Bearer ${await test.token(userId)}` };
    await buyPackOverHttp(test.url, auth);
    const trackId = await seedTrack(test, userId);
    const answers = await Promise.all(Array.from({ length: 50 }, () => unlock(auth, trackId)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.body.creditsUsed === 1)).toHaveLength(1);
    const spends = await spendsOf(userId);
    expect(spends).toHaveLength(1);
    const unlocks = (await eventsOf(test, ['TrackUnlocked'])).filter((e) => e.streamName === `track-${trackId}`);
    expect(unlocks).toHaveLength(1);
    expect(unlocks[0]!.metadata.causationId).toBe((spends[0]!.data as { spendId: string }).spendId);
    const { report } = await audit();
    expect(report.violations).toEqual([]);
  }, 60_000);

  it('five rounds of ten tracks unlocked at once, and a refund racing unlocks: the audit stays clean', async () => {
    const userId = 'ten-track-race';
    const auth = { Authorization: `Bearer ${await test.token(userId)}` };
    await buyPackOverHttp(test.url, auth, 'mastering-pro'); // more credits than tracks
    const tracks = await Promise.all(Array.from({ length: 10 }, () => seedTrack(test, userId)));
    const answers = await Promise.all(
      tracks.flatMap((trackId) => Array.from({ length: 5 }, () => unlock(auth, trackId))),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await spendsOf(userId)).toHaveLength(10);

    const racer = 'refund-race';
    const racerAuth = { Authorization: `Bearer ${await test.token(racer)}` };
    const { paymentId } = await buyPackOverHttp(test.url, racerAuth); // 5 credits
    const more = await Promise.all(Array.from({ length: 8 }, () => seedTrack(test, racer)));
    const { Refunds } = await import('@kora/billing');
    const [refund, ...raced] = await Promise.all([
      test.app.get(Refunds).refund(paymentId, 'race test'),
      ...more.map((trackId) => unlock(racerAuth, trackId)),
    ]);
    const used = raced.filter((a) => a.status === 200).length;
    expect(raced.every((a) => a.status === 200 || a.body.code === 'BILLING.INSUFFICIENT_CREDITS')).toBe(true);
    expect(refund.creditsRevoked + used).toBe(5);
    const { report } = await audit();
    expect(report.violations).toEqual([]);
  }, 120_000);
});
