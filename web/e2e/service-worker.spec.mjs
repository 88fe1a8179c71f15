import { describe, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { ROOT } from './support.mjs';

const SOURCE = readFileSync(`${ROOT}web/public/sw.js`, 'utf8');
const ORIGIN = 'http://localhost:8080';

/**
 * The service worker run as a browser runs it, against fakes of Cache Storage and the network: `caches.match` answers
 * with `cached` (a promise, so a test can keep it pending forever), `fetch` with `network`.
 */
function worker({ cached, network }) {
  const listeners = {};
  const put = jest.fn(() => Promise.resolve());
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type, listener) => (listeners[type] = listener),
  };
  const caches = { match: jest.fn(() => cached), open: () => Promise.resolve({ put, add: () => Promise.resolve() }) };
  const fetch = jest.fn(() => Promise.resolve(network));
  runInNewContext(SOURCE, { self, caches, fetch, URL, Promise, setTimeout, clearTimeout, Response: {} });
  /** Dispatches a GET for `path`: what the worker answered with (undefined: left to the network) and kept alive for. */
  const get = (path, mode = 'no-cors') => {
    let answer;
    const kept = [];
    const request = { method: 'GET', url: `${ORIGIN}${path}`, mode };
    listeners.fetch({ request, respondWith: (promise) => (answer = promise), waitUntil: (p) => kept.push(p) });
    return { answer, kept };
  };
  return { get, fetch, put, caches };
}

const response = (body) => ({ ok: true, body, clone: () => response(body) });

describe('the service worker', () => {
  it('answers a hashed asset from the cache when it is there, without the network', async () => {
    const sw = worker({ cached: Promise.resolve(response('cached')), network: response('network') });
    const { answer } = sw.get('/assets/index-abc.js');
    expect((await answer).body).toBe('cached');
    expect(sw.fetch).not.toHaveBeenCalled();
  });

  it('fetches a missing asset, answers with it and keeps a copy while the worker stays alive for it', async () => {
    const sw = worker({ cached: Promise.resolve(undefined), network: response('network') });
    const { answer, kept } = sw.get('/assets/index-abc.js');
    expect((await answer).body).toBe('network');
    expect(kept).toHaveLength(1);
    await Promise.all(kept);
    expect(sw.put).toHaveBeenCalledTimes(1);
  });

  it('answers from the network when Cache Storage never answers, within its wait', async () => {
    // A look-up that never settles: before, every script of every page the worker controlled waited on it forever.
    const sw = worker({ cached: new Promise(() => undefined), network: response('network') });
    const started = Date.now();
    const { answer } = sw.get('/assets/route-xyz.js');
    expect((await answer).body).toBe('network');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1_900);
    expect(waited).toBeLessThan(10_000);
  });

  it('answers from the network when the look-up fails', async () => {
    const sw = worker({ cached: Promise.reject(new Error('quota')), network: response('network') });
    expect((await sw.get('/assets/index-abc.js').answer).body).toBe('network');
  });

  it('leaves the API, the provider and the socket to the network, and pages to the network first', async () => {
    const sw = worker({ cached: Promise.resolve(response('cached')), network: response('network') });
    for (const path of ['/api/user/profile', '/oidc/token', '/socket.io/?EIO=4', '/dev/outbox'])
      expect(sw.get(path).answer).toBeUndefined();
    expect((await sw.get('/accountSettings', 'navigate').answer).body).toBe('network');
    expect(sw.caches.match).not.toHaveBeenCalled();
  });
});
