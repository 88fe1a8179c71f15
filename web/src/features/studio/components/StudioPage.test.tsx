import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';

// The result view pulls in the stems board and the video player, whose styles and waveform jsdom cannot load.
jest.mock('../../../components/board/board.css', () => ({}));
jest.mock('../video/video.css', () => ({}));
jest.mock('wavesurfer.js', () => ({ __esModule: true, default: { create: jest.fn() } }));
// Loaded after the mocks above are registered (the transform does not hoist them above imports).
let DashboardPage: typeof import('./DashboardPage').DashboardPage;
beforeAll(async () => {
  ({ DashboardPage } = await import('./DashboardPage'));
});

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await act(() => jest.advanceTimersByTimeAsync(1));
};

const processingTrack = {
  id: 't1',
  filename: 'Sunu gaal.wav',
  format: 'wav',
  service: 'STEM_SEPARATION',
  mode: 'vocals',
  preset: null,
  status: 'STEMS_PROCESSING',
  error: null,
  errorCode: null,
  progress: 0.2,
  createdAt: new Date().toISOString(),
  isDemo: false,
  isVideo: false,
  unlocked: false,
  fileSize: 2_000_000,
  durationSec: 12,
  originalUrl: '/api/audio/track/t1/stream/original',
  previewUrl: null,
  masterUrl: null,
  stems: {},
};

describe('the studio page', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    fakeServer({
      'GET /api/user/profile': () => ({ status: 404, body: {} }),
      'GET /api/audio/track/t1': () => ({ status: 200, body: processingTrack }),
      'GET /api/audio/track/t1/status': () => ({
        status: 200,
        body: { status: 'STEMS_PROCESSING', error: null, progress: 0.2, estimatedCompletion: null },
      }),
    });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  const pressed = () =>
    screen
      .getAllByRole('button', { pressed: true })
      .map((button) => button.querySelector('.service__name')?.textContent)
      .filter(Boolean);

  it('picks AI mastering by default, the stored choice, or the address’s ?service=', async () => {
    const first = renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], { path: '/dashboard' });
    await flush();
    expect(pressed()).toEqual(['AI mastering']);
    fireEvent.click(screen.getByRole('button', { name: /Audio enhancement/ }));
    expect(localStorage.getItem('selectedService')).toBe('AUDIO_ENHANCEMENT');
    expect(screen.getByRole('button', { name: 'Video' })).toBeTruthy();
    first.unmount();

    const second = renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], { path: '/dashboard' });
    await flush();
    expect(pressed()).toEqual(['Audio enhancement']);
    second.unmount();

    renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], { path: '/dashboard?service=STEM_SEPARATION' });
    await flush();
    expect(pressed()).toEqual(['Stem separation']);
    expect((screen.getByRole('button', { name: /AI mixing/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('comes back to a job in progress from ?track= and freezes the service picker meanwhile', async () => {
    renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], { path: '/dashboard?track=t1' });
    await flush();
    expect(screen.getByRole('progressbar', { name: 'Processing progress' })).toBeTruthy();
    expect(screen.getAllByRole('listitem').filter((item) => item.className.startsWith('steps__item'))).toHaveLength(4);
    expect(pressed()).toEqual(['Stem separation']);
    for (const name of [/AI mastering/, /Stem separation/, /Audio enhancement/]) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    }
    expect(screen.getByText('Sunu gaal.wav is being processed.')).toBeTruthy();
  });

  it('keeps AI mixing unselectable, links to it, and shows the app’s mixing studio for ?service=AI_MIXING or ?mix=', async () => {
    const seen: Array<string | null> = [];
    function MixingStudio({ sessionId, onSession }: { sessionId: string | null; onSession(id: string | null): void }) {
      seen.push(sessionId);
      return (
        <button type="button" onClick={() => onSession(sessionId ? null : 'm1')}>
          {sessionId ? `mix ${sessionId}` : 'mixing setup'}
        </button>
      );
    }
    const first = renderRoutes([{ path: '/dashboard', element: <DashboardPage MixingStudio={MixingStudio} /> }], {
      path: '/dashboard',
    });
    await flush();
    expect((screen.getByRole('button', { name: /AI mixing/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Try the mixing studio (preview)' }).getAttribute('href')).toBe(
      '/dashboard?service=AI_MIXING',
    );
    expect(screen.queryByText('mixing setup')).toBeNull();
    first.unmount();

    renderRoutes([{ path: '/dashboard', element: <DashboardPage MixingStudio={MixingStudio} /> }], {
      path: '/dashboard?service=AI_MIXING',
    });
    await flush();
    expect(screen.queryAllByRole('button', { pressed: true })).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'mixing setup' }));
    await flush();
    // The session goes in the address; "New mix" goes back to the setup.
    expect(screen.getByRole('button', { name: 'mix m1' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New mix' }));
    await flush();
    expect(screen.getByRole('button', { name: 'mixing setup' })).toBeTruthy();
    // Picking another service leaves the mixing studio.
    fireEvent.click(screen.getByRole('button', { name: /Stem separation/ }));
    await flush();
    expect(screen.queryByText('mixing setup')).toBeNull();
    expect(pressed()).toEqual(['Stem separation']);
    expect(seen).toContain('m1');
  });
});
