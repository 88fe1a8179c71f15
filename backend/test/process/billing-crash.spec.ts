import { afterEach, describe, expect, it } from '@jest/globals';
import { AUDIT_CLI, runCli } from '../billing/billing-support';
import { freePort, run, type Running, userToken, waitFor } from '../support/server-process';
import { tempDir } from '../support/temp';

/**
 * The window the reconciler exists for: PayPal captured the money, and the process died before `PaymentCaptured` was
 * appended. `BILLING_TEST_CRASH_AFTER_CAPTURE=1` (honoured only with NODE_ENV=test) makes the built server SIGKILL
 * itself at exactly that point; the restarted server's reconciler asks PayPal (the sandbox, whose orders survive in
 * the read store) and records and grants the capture once.
 */
describe('a server killed between the provider’s capture and our append', () => {
  const dirs: Array<{ cleanup: () => void }> = [];
  const running: Running[] = [];
  afterEach(() => {
    for (const server of running.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) dir.cleanup();
  });

  it('is repaired at restart: captured once, granted once, and the audit is clean', async () => {
    const dir = tempDir('kora-billing-crash-');
    dirs.push(dir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      DATA_DIR: dir.path,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      NODE_ENV: 'test',
      DEMO_TRACKS: 'off',
      LOG_LEVEL: 'warn',
      BILLING_RECONCILE_MIN_AGE_SECONDS: '0',
      SANDBOX_KNOBS: 'on',
    };
    const first = run({ ...env, BILLING_TEST_CRASH_AFTER_CAPTURE: '1' });
    running.push(first);
    const up = async () => (await fetch(`${url}/api/health`).catch(() => null))?.ok === true;
    await waitFor(up, 30_000);
    const token = userToken({ ...env, PATH: process.env.PATH ?? '' }, 'crash@example.sn');
    const auth = { Authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown = {}, headers: Record<string, string> = auth) =>
      fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

    const intent = (await (
      await post('/api/payments/createIntent', {
        provider: 'PAYPAL',
        currency: 'USD',
        planId: 'mastering-starter',
        paymentType: 'PACK',
      })
    ).json()) as { paymentId: string; orderId: string };
    expect(intent.orderId).toBeTruthy();
    // No webhook: the only report of the capture is our own capture call, which dies.
    await fetch(`${url}/sandbox/knobs`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhooks: false }),
    });
    const approved = await post(
      `/sandbox/paypal/orders/${intent.orderId}/approve`,
      {},
      { 'content-type': 'application/json' },
    );
    expect(approved.status).toBe(200);
    const capture = await post(`/api/payments/paypal/capture/${intent.orderId}`).catch((error: unknown) => error);
    // The connection died with the process (fetch's error comes from Node's realm, not the test's: matched by shape).
    expect(capture).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Before the restart: the log holds no capture (the audit sees a pending payment, nothing granted).
    const before = await runCli(AUDIT_CLI, dir.path, ['--csv']);
    expect({ [before.stdout]: before.code }).toEqual({ [before.stdout]: 0 });
    expect(before.stdout).not.toContain('revenue,USD');

    const second = run(env);
    running.push(second);
    await waitFor(up, 30_000);
    const current = async () => {
      const response = await fetch(`${url}/api/subscriptions/current`, { headers: auth });
      return response.ok ? ((await response.json()) as { subscription: { remaining: Record<string, number> } }) : null;
    };
    await waitFor(async () => (await current())?.subscription.remaining.AI_MASTERING === 5, 30_000);
    const status = (await (await post('/api/payments/status', { paymentIntentId: intent.paymentId })).json()) as {
      paymentStatus: string;
    };
    expect(status.paymentStatus).toBe('paid');
    second.child.kill('SIGTERM');
    await second.exited;

    const after = await runCli(AUDIT_CLI, dir.path, ['--csv']);
    expect({ [after.stdout]: after.code }).toEqual({ [after.stdout]: 0 });
    expect(after.stdout.split('\n')).toContain('revenue,USD,PAYPAL,1,19.99,0,0.00,19.99');
    const { openStores, closeStores } = await import('../../src/infra/infra.module');
    const { loadConfig } = await import('../../src/config/config');
    const stores = await openStores(loadConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'silent' }));
    try {
      const { events } = await stores.events.readAll({
        after: 0,
        maxCount: 10_000,
        types: ['PaymentCaptured', 'PackPurchased'],
      });
      expect(events.map((e) => e.type).sort()).toEqual(['PackPurchased', 'PaymentCaptured']);
      expect(events.find((e) => e.type === 'PaymentCaptured')!.data).toMatchObject({ source: 'reconciler' });
    } finally {
      await closeStores(stores);
    }
  }, 120_000);
});
