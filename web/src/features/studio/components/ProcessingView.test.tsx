import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import type { Track } from '@kora/contracts';
import { ProcessingView } from './ProcessingView';

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await act(() => jest.advanceTimersByTimeAsync(1));
};
const advance = async (ms: number) => {
  for (let left = ms; left > 0; left -= 100) await act(() => jest.advanceTimersByTimeAsync(Math.min(100, left)));
};

const NOW = Date.parse('2026-11-25T10:00:00.000Z');

const track: Track = {
  id: 't1',
  audioId: 't1',
  filename: 'Sunu gaal.wav',
  format: 'wav',
  service: 'AI_MASTERING',
  mode: null,
  preset: null,
  status: 'PROCESSING',
  error: null,
  errorCode: null,
  progress: 0,
  createdAt: new Date(NOW).toISOString(),
  isDemo: false,
  isVideo: false,
  unlocked: false,
  creditsCost: 1,
  fileSize: 2_000_000,
  durationSec: 12,
  originalUrl: '/api/audio/track/t1/stream/original',
  previewUrl: null,
  masterUrl: null,
  stems: {},
  streamUrls: { original: '/api/audio/track/t1/stream/original', preview: null, master: null, stems: {} },
};

describe('the processing view with the socket down', () => {
  let status: {
    status: string;
    error: string | null;
    progress: number;
    remainingMs: number | null;
    estimatedCompletion: string | null;
  };
  // The server's answer at the time of the call: the job ends 100 s after NOW.
  const answer = () =>
    status.remainingMs === null ? status : { ...status, remainingMs: Math.max(0, NOW + 100_000 - Date.now()) };

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'], now: NOW });
    status = {
      status: 'ANALYZING',
      error: null,
      progress: 0.1,
      remainingMs: 100_000,
      estimatedCompletion: new Date(NOW + 100_000).toISOString(),
    };
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('polls the status every second, shows the steps and the time left, and ends half a second after the result', async () => {
    const server = fakeServer({
      'GET /api/user/profile': () => ({ status: 404, body: {} }),
      'GET /api/audio/track/t1/status': () => ({ status: 200, body: answer() }),
    });
    const onFinished = jest.fn();
    renderRoutes([
      { path: '/', element: <ProcessingView track={track} onFinished={onFinished} onAborted={jest.fn()} /> },
    ]);
    await flush();
    const polls = () => server.calls.filter((call) => call.path === '/api/audio/track/t1/status').length;
    const first = polls();
    await advance(3000);
    expect(polls() - first).toBeGreaterThanOrEqual(3);
    expect(screen.getAllByRole('listitem')).toHaveLength(7);
    expect(screen.getByText(/^About 1:3\d left$/)).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Processing progress' });
    // The processing bar starts where the upload ring ended (30 %) and covers the rest of the way.
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(30 + 7);

    status = { ...status, status: 'PREVIEW_READY', progress: 1, remainingMs: null, estimatedCompletion: null };
    await advance(1000);
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect(onFinished).not.toHaveBeenCalled();
    await advance(600);
    expect(onFinished).toHaveBeenCalled();
  });

  it('aborts only after Yes in the confirmation, through the cancel call', async () => {
    const server = fakeServer({
      'GET /api/user/profile': () => ({ status: 404, body: {} }),
      'GET /api/audio/track/t1/status': () => ({ status: 200, body: answer() }),
      'POST /api/audio/track/t1/cancel': () => ({ status: 200, body: { success: true } }),
    });
    const onAborted = jest.fn();
    renderRoutes([
      { path: '/', element: <ProcessingView track={track} onFinished={jest.fn()} onAborted={onAborted} /> },
    ]);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Abort' }));
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Abort' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    await flush();
    expect(server.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/audio/track/t1/cancel',
    ]);
    expect(onAborted).toHaveBeenCalled();
  });
});
