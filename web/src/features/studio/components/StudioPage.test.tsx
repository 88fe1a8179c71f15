import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { type Call, fakeServer, renderRoutes } from '../../../test/fakes';
import type { UploadAccess } from './UploadCard';

// The result view pulls in the stems board and the video player, whose styles and waveform jsdom cannot load.
jest.mock('../../../components/board/board.css', () => ({}));
jest.mock('./video.css', () => ({}));
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

/** Real timers: lets the fetches and renders in flight finish. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 30)));

/** A finished stem separation of "Sunu gaal.wav" (the upload of `processingTrack`). */
const separation = (id: string, mode: string, overrides: Record<string, unknown> = {}) => ({
  ...processingTrack,
  id,
  mode,
  status: 'STEMS_READY',
  progress: 1,
  originalUrl: `/api/audio/track/${id}/stream/original`,
  ...overrides,
});

const separated = separation('t1', 'vocals');
/** Already separated in drums mode: the same upload (name, size, length). */
const drums = separation('t2', 'drums');
/** Guitars of another file with the same name: not the same upload. */
const otherGuitars = separation('t9', 'guitars', { fileSize: 999_999 });
const started = separation('t3', 'guitars', { status: 'STEMS_PROCESSING', progress: 0 });

async function render({ track = separated, access = 'open' as UploadAccess, reprocess = 201 } = {}) {
  const { calls } = fakeServer({
    'GET /api/user/profile': () => ({ status: 404, body: {} }),
    [`GET /api/audio/track/${track.id}`]: () => ({ status: 200, body: track }),
    'GET /api/audio/track/t2': () => ({ status: 200, body: drums }),
    'GET /api/audio/track/t3': () => ({ status: 200, body: started }),
    'GET /api/audio/track/t3/status': () => ({
      status: 200,
      body: { status: 'STEMS_PROCESSING', error: null, progress: 0, estimatedCompletion: null },
    }),
    'GET /api/audio/tracks': () => ({
      status: 200,
      body: { tracks: [otherGuitars, drums, track], totalCount: 3, page: 1, limit: 50 },
    }),
    [`POST /api/audio/track/${track.id}/reprocess`]: () =>
      reprocess === 201
        ? { status: 201, body: { ...started, status: 'UPLOADING' } }
        : {
            status: reprocess,
            body: { code: 'TRACKS.ALREADY_PROCESSING', message: 'There is already a track being processed.' },
          },
  });
  const view = renderRoutes([{ path: '/dashboard', element: <DashboardPage useUploadAccess={() => access} /> }], {
    path: `/dashboard?track=${track.id}`,
  });
  for (let i = 0; i < 5; i += 1) await settle();
  await screen.findByRole('group', { name: 'Separation mode' });
  return { ...view, calls };
}

const modes = () => within(screen.getByRole('group', { name: 'Separation mode' }));
const address = (router: { state: { location: { search: string } } }) => router.state.location.search;
const reprocessCalls = (calls: Call[]) => calls.filter((call) => call.path.endsWith('/reprocess'));

describe('the stems board’s mode buttons in the studio', () => {
  it('mark the current mode and open the separation the user already has in another mode', async () => {
    const { router, calls } = await render();
    expect(modes().getByRole('button', { name: 'Vocals' }).getAttribute('aria-pressed')).toBe('true');
    expect(modes().getByRole('button', { name: 'Drums' }).getAttribute('aria-pressed')).toBe('false');
    expect((modes().getByRole('button', { name: 'Drums' }) as HTMLButtonElement).disabled).toBe(false);

    fireEvent.click(modes().getByRole('button', { name: 'Drums' }));
    for (let i = 0; i < 5; i += 1) await settle();
    expect(address(router)).toBe('?track=t2');
    const search = calls.find((call) => call.path === '/api/audio/tracks');
    expect(search?.query.get('service')).toBe('STEM_SEPARATION');
    expect(search?.query.get('search')).toBe('Sunu gaal.wav');
    expect(reprocessCalls(calls)).toEqual([]);
    await screen.findByRole('group', { name: 'Separation mode' });
    expect(modes().getByRole('button', { name: 'Drums' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('ask before starting a new separation of the same upload, then show its processing view', async () => {
    const { router, calls } = await render();
    fireEvent.click(modes().getByRole('button', { name: 'Guitars' }));
    for (let i = 0; i < 3; i += 1) await settle();
    const dialog = screen.getByRole('dialog', { name: 'Separate in Guitars mode?' });
    expect(dialog.textContent).toContain('its own free preview');

    // "Not now" changes nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(reprocessCalls(calls)).toEqual([]);

    fireEvent.click(modes().getByRole('button', { name: 'Guitars' }));
    for (let i = 0; i < 3; i += 1) await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Start the separation' }));
    for (let i = 0; i < 5; i += 1) await settle();
    expect(reprocessCalls(calls).map((call) => call.body)).toEqual([{ service: 'STEM_SEPARATION', mode: 'guitars' }]);
    expect(address(router)).toBe('?track=t3');
    await screen.findByRole('button', { name: 'Abort' });
  });

  it('say why a new separation is refused (another job running)', async () => {
    const { router } = await render({ reprocess: 409 });
    fireEvent.click(modes().getByRole('button', { name: 'Full' }));
    for (let i = 0; i < 3; i += 1) await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Start the separation' }));
    for (let i = 0; i < 5; i += 1) await settle();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(
      'There is already a track being processed. Please wait for it to complete.',
    );
    expect(address(router)).toBe('?track=t1');
  });

  it('offer the plans instead of a new separation when no stem separation credit is left', async () => {
    const { calls } = await render({ access: 'subscribe' });
    fireEvent.click(modes().getByRole('button', { name: 'Full' }));
    for (let i = 0; i < 3; i += 1) await settle();
    const dialog = screen.getByRole('dialog', { name: 'Separate in Full mode?' });
    expect(within(dialog).queryByRole('button', { name: 'Start the separation' })).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Subscribe to a pack' }).getAttribute('href')).toBe(
      '/accountSettings?section=plans&service=STEM_SEPARATION#plansSection',
    );
    expect(reprocessCalls(calls)).toEqual([]);
  });

  it('stay off on a demo, which is separated in one mode only', async () => {
    await render({ track: separation('demo1', 'vocals', { isDemo: true }) });
    expect((modes().getByRole('button', { name: 'Drums' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('The demo is separated in one mode only.')).toBeTruthy();
  });
});
