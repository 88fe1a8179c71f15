import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type Call, fakeServer, renderRoutes } from '../../../test/fakes';
import type { UploadAccess } from './UploadCard';

// The result view pulls in the stems board and the video player, whose styles and waveform jsdom cannot load.
jest.mock('../../../components/board/board.css', () => ({}));
jest.mock('../video/video.css', () => ({}));
jest.mock('wavesurfer.js', () => ({ __esModule: true, default: { create: jest.fn() } }));
let DashboardPage: typeof import('./DashboardPage').DashboardPage;
beforeAll(async () => {
  ({ DashboardPage } = await import('./DashboardPage'));
});

const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 30)));

const separation = (id: string, mode: string, overrides: Record<string, unknown> = {}) => ({
  id,
  filename: 'Sunu gaal.wav',
  format: 'wav',
  service: 'STEM_SEPARATION',
  mode,
  preset: null,
  status: 'STEMS_READY',
  error: null,
  errorCode: null,
  progress: 1,
  createdAt: '2026-11-25T10:00:00.000Z',
  isDemo: false,
  isVideo: false,
  unlocked: false,
  fileSize: 2_116_844,
  durationSec: 12,
  originalUrl: `/api/audio/track/${id}/stream/original`,
  previewUrl: null,
  masterUrl: null,
  stems: {},
  ...overrides,
});

const open = separation('t1', 'vocals');
/** Already separated in drums mode: the same upload (name, size, length). */
const drums = separation('t2', 'drums');
/** Guitars of another file with the same name: not the same upload. */
const otherGuitars = separation('t9', 'guitars', { fileSize: 999_999 });
const started = separation('t3', 'guitars', { status: 'STEMS_PROCESSING', progress: 0 });

async function render({ track = open, access = 'open' as UploadAccess, reprocess = 201 } = {}) {
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
            body: { code: 'services.errors.alreadyProcessing', message: 'There is already a track being processed.' },
          },
  });
  const view = renderRoutes([{ path: '/dashboard', element: <DashboardPage useUploadAccess={() => access} /> }], {
    path: `/dashboard?track=${track.id}`,
  });
  for (let i = 0; i < 5; i += 1) await flush();
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
    for (let i = 0; i < 5; i += 1) await flush();
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
    for (let i = 0; i < 3; i += 1) await flush();
    const dialog = screen.getByRole('dialog', { name: 'Separate in Guitars mode?' });
    expect(dialog.textContent).toContain('its own free preview');

    // "Not now" changes nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(reprocessCalls(calls)).toEqual([]);

    fireEvent.click(modes().getByRole('button', { name: 'Guitars' }));
    for (let i = 0; i < 3; i += 1) await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Start the separation' }));
    for (let i = 0; i < 5; i += 1) await flush();
    expect(reprocessCalls(calls).map((call) => call.body)).toEqual([{ service: 'STEM_SEPARATION', mode: 'guitars' }]);
    expect(address(router)).toBe('?track=t3');
    await screen.findByRole('button', { name: 'Abort' });
  });

  it('say why a new separation is refused (another job running)', async () => {
    const { router } = await render({ reprocess: 409 });
    fireEvent.click(modes().getByRole('button', { name: 'Full' }));
    for (let i = 0; i < 3; i += 1) await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Start the separation' }));
    for (let i = 0; i < 5; i += 1) await flush();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(
      'There is already a track being processed. Please wait for it to complete.',
    );
    expect(address(router)).toBe('?track=t1');
  });

  it('offer the plans instead of a new separation when no stem separation credit is left', async () => {
    const { calls } = await render({ access: 'subscribe' });
    fireEvent.click(modes().getByRole('button', { name: 'Full' }));
    for (let i = 0; i < 3; i += 1) await flush();
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
