import { DISCARD_LIMITS } from '@kora/kernel/nest';
import { existsSync, readdirSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { endlessUpload } from '../support/endless-upload';
import { waitFor } from '../support/server-process';
import { startTestApp, type TestApp } from '../support/test-app';
import { Metrics } from '../../src/observability/metrics';

const MB = 1024 * 1024;
/** The most a socket hands over in one read (its stream's high-water mark). */
const SOCKET_READ = 64 * 1024;

/**
 * The server's own clock for the next request on `path`: from its answer's last byte handed to the socket to the
 * connection's close. (The client's clock says when it read the answer, which its own busy sending can delay.)
 */
function serverClock(test: TestApp, path: string): { answerToCloseMs(): Promise<number> } {
  const server = test.app.getHttpServer() as Server;
  let answeredAt = 0;
  let closedAt = 0;
  const watch = (request: IncomingMessage, response: ServerResponse): void => {
    if (!request.url?.startsWith(path) || answeredAt) return;
    response.once('finish', () => (answeredAt = performance.now()));
    request.socket.once('close', () => (closedAt = performance.now()));
  };
  server.on('request', watch);
  return {
    async answerToCloseMs() {
      await waitFor(async () => closedAt > 0, 5_000);
      server.off('request', watch);
      return closedAt - answeredAt;
    },
  };
}

/** The server's own count of connections answered early and the body bytes it discarded after the answers. */
async function discardedConnections(test: TestApp): Promise<{ count: number; bytes: number }> {
  const metrics = test.app.get(Metrics);
  let count = 0;
  let bytes = 0;
  // The server counts a connection once its socket has closed, a moment after the client saw it close.
  await waitFor(async () => {
    const { values } = await metrics.discardedBody.get();
    count = values.find((v) => v.metricName === 'kora_http_discarded_body_bytes_count')?.value ?? 0;
    bytes = values.find((v) => v.metricName === 'kora_http_discarded_body_bytes_sum')?.value ?? 0;
    return count > 0;
  }, 5_000);
  return { count, bytes };
}

/**
 * The fault that ended the process: an upload past its service's limit with the form's fields first (as browsers
 * and curl send them) left the blob store's rejection unhandled. Every error path is now answered; an unhandled
 * rejection here fails the run. The real-process version is `npm run test:faults`.
 */
describe('uploads past their limit', () => {
  let test: TestApp;
  let auth: { Authorization: string };
  beforeAll(async () => {
    test = await startTestApp();
    auth = { Authorization: `Bearer ${await test.token('limits-user')}` };
  });
  afterAll(() => test.close());

  it('are answered 413 UPLOAD.FILE_SIZE_MAX with the limit, fields before the file, and nothing stays', async () => {
    for (const [service, limitMb] of [
      ['AI_MASTERING', 50],
      ['STEM_SEPARATION', 50],
    ] as const) {
      const response = await request(test.url)
        .post('/api/audio/upload')
        .set(auth)
        .field('service', service)
        .attach('file', Buffer.alloc(51 * MB), 'big.wav')
        .expect(413);
      expect(response.body).toMatchObject({ code: 'UPLOAD.FILE_SIZE_MAX', details: { limitMb } });
    }
    const created = await request(test.url)
      .post('/api/mixing/sessions/create')
      .set(auth)
      .send({ name: 'limits' })
      .expect(201);
    const response = await request(test.url)
      .post(`/api/mixing/sessions/${created.body.session.id}/tracks`)
      .set(auth)
      .attach('file', Buffer.alloc(101 * MB), 'big.wav')
      .expect(413);
    expect(response.body.code).toBe('UPLOAD.FILE_SIZE_MAX');
    await request(test.url).get('/api/health').expect(200);
    const tracks = join(test.dataDir, 'blobs', 'tracks');
    expect(existsSync(tracks) ? readdirSync(tracks) : []).toEqual([]);
  }, 60_000);
});

/**
 * After a refusal the rest of the body is not read forever: the answer goes out with `Connection: close` as soon as
 * it is decided, at most a few megabytes or a few seconds more are read and thrown away, then the connection closes.
 */
describe('a client that keeps sending after the refusal', () => {
  let test: TestApp;
  let token: string;
  beforeAll(async () => {
    test = await startTestApp();
    token = await test.token('endless-user');
  });
  afterAll(() => test.close());

  it('gets its 413 at once, then sees the connection closed after a few megabytes; the server keeps serving', async () => {
    const clock = serverClock(test, '/api/audio/upload');
    const sent = await endlessUpload(test.url, '/api/audio/upload', token, { service: 'AI_MASTERING' });
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 'UPLOAD.FILE_SIZE_MAX', details: { limitMb: 50 } });
    expect(sent.headers.connection).toBe('close');
    // Fast enough to reach the byte bound at once: reading stops there, and the connection closes once the answer
    // has had its grace, by the server's clock. What it sent beyond the bound sat in socket buffers.
    const held = await clock.answerToCloseMs();
    expect(held).toBeGreaterThanOrEqual(DISCARD_LIMITS.graceMs - 100);
    expect(held).toBeLessThan(DISCARD_LIMITS.ms);
    expect(sent.closedAfterAnswerMs).toBeLessThan(DISCARD_LIMITS.ms);
    // What the server read and threw away after its answer, by its own count: up to the bound and one socket read
    // past it (what the client handed to its socket beyond that sat in buffers, and says nothing of the server).
    const discarded = await discardedConnections(test);
    expect(discarded.count).toBe(1);
    expect(discarded.bytes).toBeGreaterThan(DISCARD_LIMITS.bytes);
    expect(discarded.bytes).toBeLessThanOrEqual(DISCARD_LIMITS.bytes + SOCKET_READ);
    await request(test.url).get('/api/health').expect(200);
    expect(
      existsSync(join(test.dataDir, 'blobs', 'tracks')) ? readdirSync(join(test.dataDir, 'blobs', 'tracks')) : [],
    ).toEqual([]);
  }, 60_000);

  it('is cut off the same way on the mixing routes, a file under another name included', async () => {
    const created = await request(test.url)
      .post('/api/mixing/sessions/create')
      .set({ Authorization: `Bearer ${token}` })
      .send({ name: 'endless' })
      .expect(201);
    const session = `/api/mixing/sessions/${created.body.session.id}`;
    // `/tracks` takes `file`; `/tracks/batch` takes `files`, so its `file` part is read and not kept, and only the
    // body's own limit (its files' and fields' weight) ends it. Stopping the parser mid-part once ended the process.
    for (const path of [`${session}/tracks`, `${session}/tracks/batch`]) {
      const sent = await endlessUpload(test.url, path, token, {});
      expect({ path, status: sent.status, connection: sent.headers.connection }).toEqual({
        path,
        status: 413,
        connection: 'close',
      });
      expect(sent.closedAfterAnswerMs).toBeLessThan(DISCARD_LIMITS.ms);
      await request(test.url).get('/api/health').expect(200);
    }
  }, 60_000);

  it('survives a client gone in the middle of a file it sent under another name', async () => {
    const created = await request(test.url)
      .post('/api/mixing/sessions/create')
      .set({ Authorization: `Bearer ${token}` })
      .send({ name: 'gone' })
      .expect(201);
    const sent = await endlessUpload(
      test.url,
      `/api/mixing/sessions/${created.body.session.id}/tracks/batch`,
      token,
      {},
      {
        giveUpMs: 300,
      },
    );
    expect(sent.status).toBe(0); // the client hung up before any answer
    await new Promise((resolve) => setTimeout(resolve, 200));
    await request(test.url).get('/api/health').expect(200);
  });

  it('answers an anonymous endless upload 401, and cuts a slow sender off after a few seconds', async () => {
    // 16 KB every 50 ms: 1.6 MB in 5 s, under the byte bound: the time bound closes it.
    const sent = await endlessUpload(
      test.url,
      '/api/audio/upload',
      'not-a-token',
      { service: 'AI_MASTERING' },
      { chunk: 16 * 1024, everyMs: 50 },
    );
    expect(sent.status).toBe(401);
    expect(sent.headers.connection).toBe('close');
    expect(sent.closedAfterAnswerMs).toBeGreaterThan(DISCARD_LIMITS.ms - 1_000);
    expect(sent.closedAfterAnswerMs).toBeLessThan(DISCARD_LIMITS.ms + 1_500);
    await request(test.url).get('/api/health').expect(200);
  }, 30_000);
});
