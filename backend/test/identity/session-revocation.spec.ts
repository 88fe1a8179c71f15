import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IdentityProvider } from '@kora/identity';
import { BuiltInIdentityProvider } from '../../src/identity-provider/built-in-provider';
import { registeredUser } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

/**
 * Two replicas on one embedded store (as API replicas share the cluster's stores): a logout or a deactivation on
 * one is refused by the other, which learns it from the event log; a replica started later loads it at start.
 */
describe('ended sessions, across replicas', () => {
  const data = tempDir();
  const env = { PUBLIC_URL: 'http://kora.test' };
  const replicaEnv = { ...env, PROJECTIONS: 'off', PROCESSORS: 'off', WORKERS: '0' };
  const apps: TestApp[] = [];
  const sockets: Socket[] = [];
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ realAuth: true, dataDir: data.path, env });
    second = await startTestApp({ realAuth: true, dataDir: data.path, env: replicaEnv });
    apps.push(first, second);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const app of apps.reverse()) await app.close();
    data.cleanup();
  });

  async function eventually(check: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('still not true');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const status = async (app: TestApp, auth: Record<string, string>) =>
    (await request(app.url).get('/api/user/profile').set(auth)).status;

  function connect(app: TestApp, token: string): Promise<Socket> {
    const socket = io(app.url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  it('refuses a token on every replica once its owner logged out on one, and closes its sockets', async () => {
    const awa = await registeredUser(first, { email: 'awa@example.sn' });
    expect(await status(second, awa.auth)).toBe(200);
    const socket = await connect(second, awa.token);
    const told: string[] = [];
    socket.on('session.ended', () => told.push('session.ended'));
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    await request(first.url).post('/api/auth/logout').set(awa.auth).expect(200);
    expect(await status(first, awa.auth)).toBe(401); // at once where the logout happened
    await eventually(async () => (await status(second, awa.auth)) === 401);
    expect(await closed).toBe('io server disconnect');
    expect(told).toEqual(['session.ended']); // before the close: the page goes to sign-in, renews nothing
    await expect(connect(second, awa.token)).rejects.toThrow('Authentication required');

    // A replica started afterwards knows it from the start.
    const third = await startTestApp({ realAuth: true, dataDir: data.path, env: replicaEnv });
    apps.push(third);
    expect(await status(third, awa.auth)).toBe(401);
  });

  it("ends one device's session on every replica, closing only its sockets, and a later replica knows it", async () => {
    const kofi = await registeredUser(first, { email: 'kofi@example.tg' });
    const provider = first.app.get(IdentityProvider) as BuiltInIdentityProvider;
    const device = async (sessionId: string) => {
      const token = await provider.signAccessToken(
        kofi.userId,
        10,
        first.config.oidc.clientId,
        first.config.oidc.audience,
        sessionId,
      );
      return { token, auth: { Authorization: `Bearer ${token}` } };
    };
    const laptop = await device('laptop-session');
    const phone = await device('phone-session');
    const laptopSocket = await connect(second, laptop.token);
    const phoneSocket = await connect(second, phone.token);
    const told: string[] = [];
    laptopSocket.on('session.ended', () => told.push('laptop'));
    phoneSocket.on('session.ended', () => told.push('phone'));
    const laptopClosed = new Promise<string>((resolve) => laptopSocket.once('disconnect', resolve));

    const done = await request(first.url).post('/api/auth/logout').set(laptop.auth).expect(200);
    expect(done.body).toEqual({ ok: true, everywhere: false });
    expect(await status(first, laptop.auth)).toBe(401);
    await eventually(async () => (await status(second, laptop.auth)) === 401);
    expect(await laptopClosed).toBe('io server disconnect');
    expect(told).toEqual(['laptop']);
    expect(phoneSocket.connected).toBe(true);
    expect(await status(first, phone.auth)).toBe(200);
    expect(await status(second, phone.auth)).toBe(200);
    // A token without a session id belongs to no device in particular: the account's own cutoff did not move.
    expect(await status(second, kofi.auth)).toBe(200);

    const third = await startTestApp({ realAuth: true, dataDir: data.path, env: replicaEnv });
    apps.push(third);
    expect(await status(third, laptop.auth)).toBe(401);
    expect(await status(third, phone.auth)).toBe(200);
  });

  it('refuses the tokens of a deactivated account on the other replica too', async () => {
    const moussa = await registeredUser(first, { email: 'moussa@example.ci' });
    expect(await status(second, moussa.auth)).toBe(200);
    await request(second.url)
      .post('/api/user/account/deactivate')
      .set(moussa.auth)
      .send({ confirmationText: 'DELETE' })
      .expect(200);
    expect(await status(second, moussa.auth)).toBe(401);
    await eventually(async () => (await status(first, moussa.auth)) === 401);
  });
});
