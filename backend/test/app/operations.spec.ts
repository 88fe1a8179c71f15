import helmet from 'helmet';
import { mkdirSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Socket } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../../src/config/config';
import { helmetOptions } from '../../src/http/http-pipeline';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

const OPS_TOKEN = 'ops-token-for-the-tests-0123456789';
const BIG_SCRIPT = Buffer.from(Array.from({ length: 2000 }, (_, i) => `export const line${i} = ${i};`).join('\n'));

/** One GET as it comes off the wire (no client-side decoding): status, headers and the body's bytes. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}
const ops = { Authorization: `Bearer ${OPS_TOKEN}` };

describe('operations endpoints', () => {
  let test: TestApp;
  const web = tempDir('kora-web-');
  beforeAll(async () => {
    mkdirSync(join(web.path, 'assets'));
    writeFileSync(join(web.path, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(web.path, 'assets', 'app-1234.js'), 'console.log(1)');
    // As the web build writes them (web/vite.config.ts): a brotli and a gzip copy beside the script.
    writeFileSync(join(web.path, 'assets', 'big-5678.js'), BIG_SCRIPT);
    writeFileSync(join(web.path, 'assets', 'big-5678.js.br'), brotliCompressSync(BIG_SCRIPT));
    writeFileSync(join(web.path, 'assets', 'big-5678.js.gz'), gzipSync(BIG_SCRIPT));
    test = await startTestApp({ env: { WEB_DIST: web.path, OPS_TOKEN } });
  });
  afterAll(async () => {
    await test.close();
    web.cleanup();
  });

  it('reports every part healthy, with the ffmpeg version, to operators', async () => {
    const response = await request(test.url).get('/api/health').set(ops).expect(200);
    expect(response.body).toMatchObject({
      status: 'ok',
      failing: [],
      checks: {
        eventStore: { status: 'up', engine: 'sqlite' },
        readStore: { status: 'up', engine: 'sqlite' },
        disk: { status: 'up', freeMb: expect.any(Number) },
        ffmpeg: { status: 'up', version: expect.stringMatching(/\d/) },
      },
    });
  });

  it('tells anyone else only the status and the names of failing checks: no path, version or engine', async () => {
    for (const headers of [{}, { Authorization: 'Bearer not-the-ops-token-at-all' }]) {
      const response = await request(test.url).get('/api/health').set(headers).expect(200);
      expect(response.body).toEqual({ status: 'ok', failing: [] });
    }
  });

  it('serves metrics to operators only', async () => {
    const anonymous = await request(test.url).get('/metrics').expect(401);
    expect(anonymous.body.code).toBe('OPS.TOKEN_REQUIRED');
    await request(test.url).get('/metrics').set('Authorization', 'Bearer wrong-token-wrong-token').expect(401);
    const closed = await startTestApp();
    try {
      // Without OPS_TOKEN nobody gets them.
      await request(closed.url).get('/metrics').set(ops).expect(401);
    } finally {
      await closed.close();
    }
  });

  it('answers 503 naming ffmpeg when it cannot be run, and the disk when space is short; uploads are refused', async () => {
    const broken = await startTestApp({
      env: { FFMPEG_PATH: '/nonexistent/ffmpeg', HEALTH_MIN_FREE_MB: '999999999', OPS_TOKEN },
    });
    try {
      const open = await request(broken.url).get('/api/health').expect(503);
      expect(open.body).toEqual({ status: 'degraded', failing: ['disk', 'ffmpeg'] });
      const upload = await request(broken.url)
        .post('/api/audio/upload')
        .set('Authorization', `Bearer ${await broken.token('user-1')}`)
        .field('service', 'AI_MASTERING')
        .attach('file', Buffer.alloc(2048), 'a.wav')
        .expect(507);
      expect(upload.body.code).toBe('STORAGE.FULL');
      // The token is checked first: an anonymous upload learns nothing about the disk.
      const anonymous = await request(broken.url)
        .post('/api/audio/upload')
        .field('service', 'AI_MASTERING')
        .attach('file', Buffer.alloc(2048), 'a.wav')
        .expect(401);
      expect(anonymous.body.code).toBe('AUTH.REQUIRED');
      const response = await request(broken.url).get('/api/health').set(ops).expect(503);
      expect(response.body.status).toBe('degraded');
      expect(response.body.failing).toEqual(['disk', 'ffmpeg']);
      expect(response.body.checks.eventStore.status).toBe('up');
      expect(response.body.checks.ffmpeg.error).toMatch(/ENOENT/);
    } finally {
      await broken.close();
    }
  });

  it('serves Prometheus metrics: request latency by route, appends and projection lag', async () => {
    await request(test.url).get('/api/health');
    const response = await request(test.url).get('/metrics').set(ops).expect(200);
    expect(response.headers['content-type']).toMatch(/text\/plain/);
    expect(response.text).toMatch(/kora_http_request_duration_seconds_bucket\{.*route="\/api\/health".*\}/);
    expect(response.text).toContain('# TYPE kora_events_appended_total counter');
    expect(response.text).toContain('# TYPE kora_projection_lag_events gauge');
    // The requests read and not yet answered: the scrape itself, nothing else meanwhile.
    expect(response.text).toMatch(/^kora_http_requests_in_progress 1$/m);
  });

  it('echoes a well-formed correlation id and makes one up otherwise', async () => {
    const given = await request(test.url).get('/api/health').set('X-Correlation-Id', 'abc-123');
    expect(given.headers['x-correlation-id']).toBe('abc-123');
    const made = await request(test.url).get('/api/health').set('X-Correlation-Id', 'bad id <script>');
    expect(made.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets the security headers helmet would set, on API answers, 404s, the web client and /oidc pages', async () => {
    // What helmet itself sets on a real response, with the server's options, for comparison.
    const helmetSets = await new Promise<Record<string, string>>((resolve, reject) => {
      const response = new ServerResponse(new IncomingMessage(new Socket()));
      response.setHeader('X-Powered-By', 'something');
      helmet(helmetOptions([new URL(test.config.oidc.issuer).origin, ...test.config.WEB_ORIGIN]))(
        response.req,
        response,
        (error?: unknown) =>
          error ? reject(error as Error) : resolve(response.getHeaders() as Record<string, string>),
      );
    });
    // A dozen, less Strict-Transport-Security, which this plain-HTTP server does not send.
    expect(Object.keys(helmetSets).length).toBeGreaterThanOrEqual(11);
    expect(helmetSets['strict-transport-security']).toBeUndefined();
    expect(helmetSets['x-powered-by']).toBeUndefined();
    for (const path of ['/api/health', '/api/nothing-here', '/', '/oidc/.well-known/openid-configuration']) {
      const response = await request(test.url).get(path);
      for (const [name, value] of Object.entries(helmetSets))
        expect([path, name, response.headers[name]]).toEqual([path, name, value]);
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers['x-correlation-id']).toMatch(/^[\w-]{8,}$/);
    }
  });

  it('lets the session-renewal frame reach the provider and back: no HTTPS upgrade, no HSTS on an HTTP install', async () => {
    const home = await request(test.url).get('/');
    const csp = home.headers['content-security-policy'] as string;
    expect(home.headers['strict-transport-security']).toBeUndefined();
    const issuer = new URL(test.config.oidc.issuer).origin;
    expect(csp).toContain(`frame-src 'self' ${issuer}`);
    // Upgraded, the frame's redirect to http://.../callback became https://..., which 'self' refused.
    expect(csp).not.toContain('upgrade-insecure-requests');
    const secure = helmetOptions(['https://kora.example', 'https://auth.example']) as {
      contentSecurityPolicy: { directives: Record<string, unknown> };
    };
    expect(secure.contentSecurityPolicy.directives['upgrade-insecure-requests']).toEqual([]);
    // Over HTTPS, the browser is told to keep to it.
    const headers = new Map<string, string>();
    helmet(helmetOptions(['https://kora.example']))(
      {} as never,
      {
        setHeader: (name: string, value: string) => headers.set(name, String(value)),
        removeHeader: () => undefined,
      } as never,
      () => undefined,
    );
    expect(headers.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    await request(test.url).get('/api/docs').expect(200).expect('Content-Type', /html/);
    const spec = await request(test.url).get('/api/docs/openapi.json').expect(200);
    expect(spec.body.info.title).toBe('Kora API');
    expect(Object.keys(spec.body.paths)).toContain('/api/health');
  });

  it('serves the web client, with client routes falling back to index.html and API misses staying JSON', async () => {
    const home = await request(test.url).get('/').set('Accept', 'text/html').expect(200);
    expect(home.text).toContain('<div id="root">');
    expect(home.headers['cache-control']).toBe('no-cache');
    const deep = await request(test.url).get('/accountSettings?section=plans').set('Accept', 'text/html').expect(200);
    expect(deep.text).toContain('<div id="root">');
    const asset = await request(test.url).get('/assets/app-1234.js').expect(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await request(test.url).get('/api/nowhere').set('Accept', 'text/html').expect(404);
    expect(api.body).toMatchObject({ statusCode: 404, code: 'HTTP.NOT_FOUND' });
    const script = await request(test.url).get('/missing.js').set('Accept', 'application/javascript').expect(404);
    expect(script.body).toMatchObject({ statusCode: 404, code: 'HTTP.NOT_FOUND' });
  });

  it("sends the build's brotli or gzip copy of a script to a browser that accepts it, the script itself otherwise", async () => {
    const url = `${test.url}/assets/big-5678.js`;
    const br = await rawGet(url, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.body.length).toBeLessThan(BIG_SCRIPT.length / 3);
    expect(brotliDecompressSync(br.body).equals(BIG_SCRIPT)).toBe(true);
    const gz = await rawGet(url, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(BIG_SCRIPT)).toBe(true);
    const plain = await rawGet(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(BIG_SCRIPT)).toBe(true);
  });

  it('answers unreadable, oversized and unsupported bodies with the API error shape, and reads an empty one as none', async () => {
    const auth = { Authorization: `Bearer ${await test.token('0190c2a4-0000-7000-8000-000000000001')}` };
    const post = (type: string, body: string | Buffer) =>
      request(test.url)
        .post('/api/audio/track/0190c2a4-0000-7000-8000-0000000000aa/cancel')
        .set(auth)
        .set('Content-Type', type)
        .send(body);
    const malformed = await post('application/json', '{"not json');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      statusCode: 400,
      code: 'HTTP.BAD_REQUEST',
      message: 'The request body could not be read',
    });
    const poisoned = await post('application/json', '{"__proto__": {"admin": true}}');
    expect(poisoned.status).toBe(400);
    expect(poisoned.body.code).toBe('HTTP.BAD_REQUEST');
    const huge = await post('application/json', JSON.stringify({ padding: 'x'.repeat(1_100_000) }));
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ statusCode: 413, code: 'HTTP.PAYLOAD_TOO_LARGE' });
    const binary = await post('application/octet-stream', Buffer.from([1, 2, 3]));
    expect(binary.status).toBe(415);
    expect(binary.body).toMatchObject({ statusCode: 415, code: 'HTTP.UNSUPPORTED_MEDIA_TYPE' });
    // An empty JSON body passes the parser: the answer is the route's own (no such track).
    const empty = await post('application/json', '');
    expect(empty.status).toBe(404);
    expect(empty.body.code).toBe('TRACKS.NOT_FOUND');
  });

  it('gives the built-in provider’s answers the same correlation id, security headers and route metrics', async () => {
    const count = async (): Promise<number> => {
      const metrics = await request(test.url).get('/metrics').set(ops).expect(200);
      const line = /kora_http_request_duration_seconds_count\{method="GET",route="\/oidc",status="200"\} (\d+)/.exec(
        metrics.text,
      );
      return Number(line?.[1] ?? 0);
    };
    const before = await count();
    const discovery = await request(test.url)
      .get('/oidc/.well-known/openid-configuration')
      .set('X-Correlation-Id', 'oidc-42')
      .expect(200);
    expect(discovery.headers['x-correlation-id']).toBe('oidc-42');
    expect(discovery.headers['x-content-type-options']).toBe('nosniff');
    expect(discovery.body.issuer).toBe(`${test.url}/oidc`);
    expect((await count()) - before).toBe(1);
  });
});

describe('configuration', () => {
  it('defaults to the embedded setup on port 8080 under ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, embedded: { eventStore: true, readStore: true } });
    expect(config.DATA_DIR).toBe(join(process.cwd(), 'data'));
  });

  it('picks the production adapters from their variables', () => {
    const config = loadConfig({
      EVENTSTORE_URL: 'esdb://kurrent:2113?tls=false',
      MONGODB_URL: 'mongodb://mongo:27017/kora',
    });
    expect(config.embedded).toEqual({ eventStore: false, readStore: false, identity: true, mail: true });
    expect(config.jobQueue).toBe('eventstore');
    expect(loadConfig({}).jobQueue).toBe('readstore');
    expect(loadConfig({ EVENTSTORE_URL: 'esdb://kurrent:2113?tls=false', JOB_QUEUE: 'readstore' }).jobQueue).toBe(
      'readstore',
    );
    expect(() => loadConfig({ JOB_QUEUE: 'eventstore' })).toThrow('JOB_QUEUE: eventstore needs EVENTSTORE_URL');
  });

  it('refuses bad variables with one readable line each', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', EVENTSTORE_URL: 'http://wrong', LOG_LEVEL: 'loud', WEB_ORIGIN: 'not a url' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.find((p) => p.startsWith('PORT:'))).toContain('"eighty"');
    expect(problems.find((p) => p.startsWith('EVENTSTORE_URL:'))).toContain('esdb://');
    expect(problems.find((p) => p.startsWith('LOG_LEVEL:'))).toContain('"loud"');
    expect(problems.find((p) => p.startsWith('WEB_ORIGIN:'))).toContain('http://');
  });
});
