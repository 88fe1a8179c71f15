import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config';
import { startTestApp, type TestApp } from '../support/test-app';
import { tempDir } from '../support/temp';

describe('operations endpoints', () => {
  let test: TestApp;
  const web = tempDir('kora-web-');
  beforeAll(async () => {
    mkdirSync(join(web.path, 'assets'));
    writeFileSync(join(web.path, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(web.path, 'assets', 'app-1234.js'), 'console.log(1)');
    test = await startTestApp({ env: { WEB_DIST: web.path } });
  });
  afterAll(async () => {
    await test.close();
    web.cleanup();
  });

  it('reports every part healthy, with the ffmpeg version', async () => {
    const response = await request(test.url).get('/api/health').expect(200);
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

  it('answers 503 naming ffmpeg when it cannot be run, and the disk when space is short', async () => {
    const broken = await startTestApp({ env: { FFMPEG_PATH: '/nonexistent/ffmpeg', HEALTH_MIN_FREE_MB: '999999999' } });
    try {
      const response = await request(broken.url).get('/api/health').expect(503);
      expect(response.body.status).toBe('error');
      expect(response.body.failing).toEqual(['disk', 'ffmpeg']);
      expect(response.body.checks.eventStore.status).toBe('up');
      expect(response.body.checks.ffmpeg.error).toMatch(/ENOENT/);
    } finally {
      await broken.close();
    }
  });

  it('serves Prometheus metrics: request latency by route, appends and projection lag', async () => {
    await request(test.url).get('/api/health');
    const response = await request(test.url).get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/text\/plain/);
    expect(response.text).toMatch(/kora_http_request_duration_seconds_bucket\{.*route="\/api\/health".*\}/);
    expect(response.text).toContain('# TYPE kora_events_appended_total counter');
    expect(response.text).toContain('# TYPE kora_projection_lag_events gauge');
  });

  it('echoes a well-formed correlation id and makes one up otherwise', async () => {
    const given = await request(test.url).get('/api/health').set('X-Correlation-Id', 'abc-123');
    expect(given.headers['x-correlation-id']).toBe('abc-123');
    const made = await request(test.url).get('/api/health').set('X-Correlation-Id', 'bad id <script>');
    expect(made.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers', async () => {
    const response = await request(test.url).get('/api/health');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
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
    expect(problems.find((p) => p.startsWith('LOG_LEVEL:'))).toBeDefined();
    expect(problems.find((p) => p.startsWith('WEB_ORIGIN:'))).toBeDefined();
  });
});
