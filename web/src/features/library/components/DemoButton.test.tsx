import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import { DemoButton } from './DemoButton';
import { DEMO_RETRY_MS, DEMO_WAIT_MS, DEMO_WAIT_TRIES } from '../hooks/useDemoTrack';

const DEMO = { id: 'demo-1', filename: 'Kora demo.wav', service: 'AI_MASTERING', status: 'MASTER_READY', isDemo: true };

/** Lets the fetches and renders in flight finish (the fake clock moves 1 ms a step). */
const flush = async () => {
  for (let i = 0; i < 20; i += 1) await act(() => jest.advanceTimersByTimeAsync(1));
};

describe('demo button', () => {
  let answer: () => { status: number; body?: unknown };
  let server: ReturnType<typeof fakeServer>;
  const demoCalls = () => server.calls.filter((call) => call.path === '/api/audio/tracks');

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    answer = () => ({ status: 200, body: { tracks: [DEMO], totalCount: 1 } });
    server = fakeServer({ 'GET /api/audio/tracks': () => answer() });
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  const render = () => {
    const onOpen = jest.fn();
    renderRoutes([{ path: '/', element: <DemoButton service="AI_MASTERING" onOpen={onOpen} /> }]);
    return onOpen;
  };

  it('is disabled while loading, then opens the account’s demo track for the service', async () => {
    const onOpen = render();
    const loading = screen.getByRole('button', { name: 'Preparing the demo...' }) as HTMLButtonElement;
    expect(loading.disabled).toBe(true);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Try the demo' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 'demo-1' }));
    expect([...demoCalls()[0]!.query.entries()]).toEqual(
      expect.arrayContaining([
        ['isDemo', 'true'],
        ['service', 'AI_MASTERING'],
        ['limit', '1'],
      ]),
    );
  });

  it('keeps asking while the new account’s demos are being made, then says they could not be loaded', async () => {
    answer = () => ({ status: 200, body: { tracks: [], totalCount: 0 } });
    render();
    for (let i = 0; i < DEMO_WAIT_TRIES; i += 1) {
      await flush();
      await act(() => jest.advanceTimersByTimeAsync(DEMO_WAIT_MS));
    }
    await flush();
    expect(demoCalls()).toHaveLength(DEMO_WAIT_TRIES);
    expect(screen.getByRole('alert').textContent).toBe('Failed to load demo tracks');
  });

  it('after a failure, tries again on the user’s action or by itself after 5 minutes', async () => {
    answer = () => ({ status: 503, body: { statusCode: 503, code: 'HTTP.UNAVAILABLE', message: 'down' } });
    render();
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('Failed to load demo tracks');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await flush();
    expect(demoCalls()).toHaveLength(2);
    expect(screen.getByRole('alert')).toBeTruthy();

    answer = () => ({ status: 200, body: { tracks: [DEMO], totalCount: 1 } });
    await act(() => jest.advanceTimersByTimeAsync(DEMO_RETRY_MS - 1000));
    expect(demoCalls()).toHaveLength(2);
    await act(() => jest.advanceTimersByTimeAsync(1000));
    await flush();
    expect(demoCalls()).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Try the demo' })).toBeTruthy();
  });
});
