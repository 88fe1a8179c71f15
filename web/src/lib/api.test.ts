import { describe, expect, it, jest } from '@jest/globals';
import { makeStore } from '../app/store';
import { fakeServer, fakeTokenSource } from '../test/fakes';
import { api, type ApiExtra, SEEN_POSITION_HEADER } from './api';

const probe = api.injectEndpoints({
  endpoints: (build) => ({ probe: build.query<{ ok: boolean }, void>({ query: () => '/probe' }) }),
});

function setup(tokensInOrder: Array<string | null>, realtime: ApiExtra['realtime'] = null) {
  const session = fakeTokenSource();
  let index = 0;
  session.getAccessToken.mockImplementation(async () => tokensInOrder[Math.min(index++, tokensInOrder.length - 1)]);
  const store = makeStore({ session, realtime });
  return { session, store, run: () => store.dispatch(probe.endpoints.probe.initiate()) };
}

describe('authenticated calls', () => {
  it('carry the bearer token', async () => {
    const server = fakeServer({ 'GET /api/probe': () => ({ status: 200, body: { ok: true } }) });
    const { run } = setup(['token-1']);
    const result = await run();
    expect(result.data).toEqual({ ok: true });
    expect(server.calls[0]!.authorization).toBe('Bearer token-1');
  });

  it('carry the newest event position the socket delivered, so the answer shows what it said', async () => {
    const server = fakeServer({ 'GET /api/probe': () => ({ status: 200, body: { ok: true } }) });
    const realtime = { on: () => () => undefined, position: null as number | null };
    const { store } = setup(['token-1'], realtime);
    await store.dispatch(probe.endpoints.probe.initiate());
    realtime.position = 42;
    await store.dispatch(probe.endpoints.probe.initiate(undefined, { forceRefetch: true }));
    expect(server.calls.map((call) => call.headers.get(SEEN_POSITION_HEADER))).toEqual([null, '42']);
  });

  it('retry a 401 once with a renewed token', async () => {
    const server = fakeServer({
      'GET /api/probe': ({ authorization }) =>
        authorization === 'Bearer token-2'
          ? { status: 200, body: { ok: true } }
          : { status: 401, body: { statusCode: 401, code: 'AUTH.REQUIRED', message: 'Authentication required' } },
    });
    const { run, session } = setup(['token-1', 'token-2']);
    const result = await run();
    expect(result.data).toEqual({ ok: true });
    expect(server.calls.map((call) => call.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(session.getAccessToken).toHaveBeenLastCalledWith({ forceRefresh: true });
    expect(session.redirectToLogin).not.toHaveBeenCalled();
  });

  it('send the person to sign in after a second 401, failing with Authentication required', async () => {
    const server = fakeServer({ 'GET /api/probe': () => ({ status: 401, body: { code: 'AUTH.REQUIRED' } }) });
    const { run, session } = setup(['token-1', 'token-2']);
    const result = await run();
    expect(server.calls).toHaveLength(2);
    expect(session.redirectToLogin).toHaveBeenCalledTimes(1);
    expect(result.error).toEqual({
      status: 401,
      data: { statusCode: 401, code: 'AUTH.REQUIRED', message: 'Authentication required' },
    });
  });

  it('do not retry when no token can be had, and go to sign-in', async () => {
    const server = fakeServer({ 'GET /api/probe': () => ({ status: 401, body: { code: 'AUTH.REQUIRED' } }) });
    const { run, session } = setup(['token-1', null]);
    await run();
    expect(server.calls).toHaveLength(1);
    expect(session.redirectToLogin).toHaveBeenCalledTimes(1);
  });

  it('go on without a token when it cannot be added (logged)', async () => {
    const server = fakeServer({ 'GET /api/probe': () => ({ status: 200, body: { ok: true } }) });
    const { run, session } = setup([]);
    session.getAccessToken.mockRejectedValue(new Error('Session expired'));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect((await run()).data).toEqual({ ok: true });
    expect(server.calls[0]!.authorization).toBeNull();
    expect(warn).toHaveBeenCalled();
  });

  it('leave other errors alone', async () => {
    fakeServer({ 'GET /api/probe': () => ({ status: 500, body: { code: 'HTTP.INTERNAL' } }) });
    const { run, session } = setup(['token-1']);
    const result = await run();
    expect(result.error).toMatchObject({ status: 500 });
    expect(session.getAccessToken).toHaveBeenCalledTimes(1);
  });
});
