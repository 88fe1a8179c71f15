import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { useState } from 'react';
import { type Call, fakeServer, renderRoutes } from '../../../test/fakes';
import type { MixCard, RecentItem, Track } from '@kora/contracts';
import { RecentTracks } from './RecentTracks';

function track(n: number, overrides: Partial<Track> = {}): Track {
  const id = `t${n}`;
  return {
    id,
    audioId: id,
    filename: `Song ${n}.wav`,
    format: 'wav',
    service: 'AI_MASTERING',
    mode: null,
    preset: null,
    status: 'PREVIEW_READY',
    error: null,
    errorCode: null,
    progress: 1,
    createdAt: new Date(Date.UTC(2026, 10, 1, 12, 0) + n * 60_000).toISOString(),
    isDemo: false,
    isVideo: false,
    unlocked: false,
    creditsCost: 1,
    fileSize: 2_000_000,
    durationSec: 10,
    originalUrl: `/api/audio/track/${id}/stream/original`,
    previewUrl: null,
    masterUrl: null,
    stems: {},
    streamUrls: { original: '', preview: null, master: null, stems: {} },
    ...overrides,
  };
}

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
}

/** The server's list: newest first, demos hidden, `search` on the file name in any case, paged. */
function listAnswer(all: Track[], call: Call) {
  const page = Number(call.query.get('page'));
  const limit = Number(call.query.get('limit'));
  const search = (call.query.get('search') ?? '').toLowerCase();
  const found = all
    .filter((item) => !item.isDemo && item.filename.toLowerCase().includes(search))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return {
    status: 200,
    body: { tracks: found.slice((page - 1) * limit, page * limit), totalCount: found.length, page, limit },
  };
}

describe('recent tracks', () => {
  let tracks: Track[];
  let server: ReturnType<typeof fakeServer>;
  const listCalls = () => server.calls.filter((call) => call.method === 'GET' && call.path === '/api/audio/tracks');

  beforeEach(() => {
    setWidth(1280);
    tracks = Array.from({ length: 10 }, (_, index) => track(index + 1));
    server = fakeServer({
      'GET /api/audio/tracks': (call) => listAnswer(tracks, call),
      'DELETE /api/audio/t10': () => {
        tracks = tracks.filter((item) => item.id !== 't10');
        return { status: 200, body: { success: true } };
      },
      'POST /api/audio/track/t9/cancel': () => ({ status: 200, body: { success: true } }),
    });
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  const render = (props: Partial<Parameters<typeof RecentTracks>[0]> = {}) => {
    const onOpen = jest.fn();
    const rendered = renderRoutes([{ path: '/', element: <RecentTracks onOpen={onOpen} {...props} /> }]);
    return { ...rendered, onOpen };
  };
  const names = () => screen.queryAllByRole('listitem').map((item) => item.querySelector('p')?.textContent);

  it('shows 4 tracks a page, newest first, with first, previous, 5 numbered pages, next and last', async () => {
    tracks = Array.from({ length: 26 }, (_, index) => track(index + 1));
    render();
    expect(screen.getByText('Loading your tracks...')).toBeTruthy();
    await waitFor(() => expect(names()).toEqual(['Song 26.wav', 'Song 25.wav', 'Song 24.wav', 'Song 23.wav']));
    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    const labels = () =>
      within(pages)
        .getAllByRole('button')
        .map((button) => button.textContent);
    expect(labels()).toEqual(['First', '‹', '1', '2', '3', '4', '5', '›', 'Last']);
    fireEvent.click(within(pages).getByRole('button', { name: 'Last' }));
    await waitFor(() => expect(names()).toEqual(['Song 2.wav', 'Song 1.wav']));
    expect(labels()).toEqual(['First', '‹', '3', '4', '5', '6', '7', '›', 'Last']);
    expect(listCalls().at(-1)!.query.get('page')).toBe('7');
    expect(listCalls().at(-1)!.query.get('limit')).toBe('4');

    // At 576 px or less: 3 numbers, no first and last.
    setWidth(576);
    expect(labels()).toEqual(['‹', '5', '6', '7', '›']);
    fireEvent.click(within(pages).getByRole('button', { name: 'Page 5' }));
    await waitFor(() => expect(names()).toEqual(['Song 10.wav', 'Song 9.wav', 'Song 8.wav', 'Song 7.wav']));
  });

  it('searches the file names once typing pauses, back on page 1, and says when nothing matches', async () => {
    tracks = [
      ...Array.from({ length: 6 }, (_, index) => track(index + 1)),
      track(7, { filename: 'Fatou LIVE take.wav' }),
      track(8, { filename: 'demo beat.wav', isDemo: true }),
    ];
    render();
    await waitFor(() => expect(names()).toHaveLength(4));
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(names()).toHaveLength(3));
    const before = listCalls().length;
    const box = screen.getByLabelText('Search by file name');
    fireEvent.change(box, { target: { value: 'l' } });
    fireEvent.change(box, { target: { value: 'li' } });
    fireEvent.change(box, { target: { value: 'live ' } });
    await waitFor(() => expect(names()).toEqual(['Fatou LIVE take.wav']));
    const searches = listCalls().slice(before);
    expect(searches.map((call) => [call.query.get('search'), call.query.get('page')])).toEqual([['live', '1']]);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();

    fireEvent.change(box, { target: { value: 'demo' } });
    await waitFor(() => expect(screen.getByText('No track matches “demo”.')).toBeTruthy());
  });

  it('says when there are no tracks yet', async () => {
    tracks = [track(1, { isDemo: true })];
    render();
    await waitFor(() => expect(screen.getByText('No tracks yet. Upload a file to get started.')).toBeTruthy());
  });

  it('offers the list view above 768 px only; at 768 px or less the grid is forced', async () => {
    render();
    await waitFor(() => expect(names()).toHaveLength(4));
    const list = () => screen.getAllByRole('list')[0]!;
    expect(list().className).toContain('recent-tracks--grid');
    fireEvent.click(screen.getByRole('button', { name: 'List' }));
    expect(list().className).toContain('recent-tracks--list');
    expect(screen.getByRole('button', { name: 'List' }).getAttribute('aria-pressed')).toBe('true');
    setWidth(768);
    expect(list().className).toContain('recent-tracks--grid');
    expect(screen.queryByRole('button', { name: 'List' })).toBeNull();
    setWidth(769);
    expect(list().className).toContain('recent-tracks--list');
  });

  it('opens a finished track, cancels one in progress instead, and never opens a failed one', async () => {
    tracks = [
      track(10),
      track(9, { status: 'ANALYZING', filename: 'Working.wav' }),
      track(8, { status: 'FAILED', filename: 'Broken.wav' }),
      track(7, { status: 'STEMS_PROCESSING', service: 'STEM_SEPARATION', filename: 'Stems.wav' }),
    ];
    const { onOpen } = render({ activeTrackId: 't10' });
    await waitFor(() => expect(names()).toHaveLength(4));
    const card = (name: string) => within(screen.getByText(name).closest('li')!);

    expect(card('Song 10.wav').getByText('Preview Ready')).toBeTruthy();
    expect(screen.getByText('Song 10.wav').closest('li')!.getAttribute('aria-current')).toBe('true');
    fireEvent.click(card('Song 10.wav').getByRole('button', { name: 'Open Song 10.wav' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 't10' }));

    for (const name of ['Working.wav', 'Stems.wav']) {
      expect(card(name).queryByRole('button', { name: /^Open/ })).toBeNull();
      expect(card(name).getByRole('button', { name: `Cancel the processing of ${name}` })).toBeTruthy();
    }
    expect(card('Working.wav').getByText('Analyzing')).toBeTruthy();
    expect(card('Stems.wav').getByText('Processing')).toBeTruthy();
    expect(card('Broken.wav').getByText('Failed')).toBeTruthy();
    expect(card('Broken.wav').queryByRole('button', { name: /^Open|^Cancel/ })).toBeNull();

    fireEvent.click(card('Working.wav').getByRole('button', { name: /^Cancel/ }));
    await waitFor(() =>
      expect(server.calls.some((call) => call.method === 'POST' && call.path === '/api/audio/track/t9/cancel')).toBe(
        true,
      ),
    );
  });

  it('shows a mixing session with its own card: name, number of tracks, status, paid, opening the mix', async () => {
    const mix = (id: string, overrides: Partial<MixCard> = {}): MixCard => ({
      kind: 'mix',
      id,
      service: 'AI_MIXING',
      name: 'Sabar night',
      filename: 'Sabar night',
      trackCount: 3,
      status: 'COMPLETED',
      error: null,
      errorCode: null,
      unlocked: true,
      isDemo: false,
      mixingStyle: 'POP',
      sampleRate: 44100,
      createdAt: '2026-11-02T12:00:00.000Z',
      ...overrides,
    });
    const items: RecentItem[] = [
      mix('m1'),
      mix('m2', { name: 'Abidjan', filename: 'Abidjan', trackCount: 2, status: 'CANCELLED', unlocked: false }),
      track(1),
    ];
    fakeServer({
      'GET /api/audio/tracks': () => ({ status: 200, body: { tracks: items, totalCount: 3, page: 1, limit: 4 } }),
    });
    const onOpenMix = jest.fn();
    const { onOpen } = render({ onOpenMix });
    const paid = (await screen.findByText('Sabar night')).closest('li')!;
    expect(within(paid).getByText(/AI mixing · 3 tracks ·/)).toBeTruthy();
    expect(within(paid).getByText('Mix ready')).toBeTruthy();
    expect(within(paid).getByText('Paid')).toBeTruthy();
    // A session has no delete route: its card offers only to open it.
    expect(within(paid).queryByRole('button', { name: /Delete/ })).toBeNull();
    fireEvent.click(within(paid).getByRole('button', { name: 'Open the mix Sabar night' }));
    expect(onOpenMix).toHaveBeenCalledWith('m1');
    expect(onOpen).not.toHaveBeenCalled();

    const cancelled = screen.getByText('Abidjan').closest('li')!;
    expect(within(cancelled).getByText(/AI mixing · 2 tracks ·/)).toBeTruthy();
    expect(within(cancelled).getByText('Cancelled')).toBeTruthy();
    expect(within(cancelled).queryByText('Paid')).toBeNull();
    fireEvent.click(within(cancelled).getByRole('button', { name: 'Open the mix Abidjan' }));
    expect(onOpenMix).toHaveBeenLastCalledWith('m2');
  });

  it('tells separations of the same file apart by their stem mode, and a cancelled job from a failed one', async () => {
    tracks = [
      track(1, { filename: 'mixture.wav', service: 'STEM_SEPARATION', mode: 'vocals', status: 'STEMS_READY' }),
      track(2, { filename: 'mixture.wav', service: 'STEM_SEPARATION', mode: 'full', status: 'STEMS_READY' }),
      track(3, { filename: 'mixture.wav', service: 'STEM_SEPARATION', mode: 'drums', status: 'CANCELLED' }),
      track(4, { filename: 'mixture.wav', service: 'STEM_SEPARATION', mode: 'guitars', status: 'FAILED' }),
    ];
    render();
    await waitFor(() => expect(names()).toHaveLength(4));
    const card = (mode: string) => screen.getByText(mode, { exact: false }).closest('li')!;
    expect(card('2 stems: vocals + the rest')).toBeTruthy();
    expect(card('4 stems: vocals, drums, bass + the rest')).toBeTruthy();
    const cancelled = card('2 stems: drums + the rest');
    expect(within(cancelled).getByText('Cancelled')).toBeTruthy();
    expect(within(cancelled).queryByText('Failed')).toBeNull();
    // Nothing to open in a stopped job, as in a failed one; it can still be deleted.
    expect(within(cancelled).queryByRole('button', { name: /Open/ })).toBeNull();
    expect(within(cancelled).getByRole('button', { name: 'Delete mixture.wav' })).toBeTruthy();
    expect(within(card('2 stems: guitars + the rest')).getByText('Failed')).toBeTruthy();
  });

  it('shows file names with every HTML tag stripped', async () => {
    tracks = [track(1, { filename: '<img src=x onerror=alert(1)><b>Beat</b> final.wav' })];
    render();
    await waitFor(() => expect(names()).toEqual(['Beat final.wav']));
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('.recent-tracks b')).toBeNull();
  });

  it('deletes only once the modal is confirmed, then shows the list without the track', async () => {
    render();
    await waitFor(() => expect(names()[0]).toBe('Song 10.wav'));
    const deletes = () => server.calls.filter((call) => call.method === 'DELETE');

    fireEvent.click(screen.getByRole('button', { name: 'Delete Song 10.wav' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete this track?' });
    expect(within(dialog).getByText(/“Song 10.wav” and its results will be deleted/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes()).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Song 10.wav' }));
    dialog = screen.getByRole('dialog', { name: 'Delete this track?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletes().map((call) => call.path)).toEqual(['/api/audio/t10']);
    await waitFor(() => expect(names()[0]).toBe('Song 9.wav'));
  });

  it('refetches when a track status arrives on the socket', async () => {
    const { realtime } = render();
    await waitFor(() => expect(names()).toHaveLength(4));
    const calls = realtime.on.mock.calls as unknown as Array<[string, (payload: unknown) => void]>;
    const handler = calls.find(([event]) => event === 'track.status')?.[1];
    expect(handler).toBeDefined();
    tracks.push(track(11, { status: 'UPLOADING', filename: 'New.wav' }));
    act(() => handler!({ trackId: 't11', status: 'UPLOADING', progress: 0 }));
    await waitFor(() => expect(names()[0]).toBe('New.wav'));
    expect(screen.getByText('Uploading')).toBeTruthy();
  });

  it('refetches when a status moves, not on each progress tick of a running job', async () => {
    const { realtime } = render();
    await waitFor(() => expect(names()).toHaveLength(4));
    const calls = realtime.on.mock.calls as unknown as Array<[string, (payload: unknown) => void]>;
    const onTrack = calls.find(([event]) => event === 'track.status')![1];
    const onMix = calls.find(([event]) => event === 'mix.status')![1];
    const before = listCalls().length;
    act(() => onTrack({ trackId: 't1', status: 'MASTERING', progress: 0 }));
    await waitFor(() => expect(listCalls().length).toBe(before + 1));
    for (let tick = 1; tick <= 5; tick += 1) {
      act(() => onTrack({ trackId: 't1', status: 'MASTERING', progress: tick / 10, remainingMs: 5000 - tick * 500 }));
      act(() => onMix({ sessionId: 'm1', status: 'PROCESSING', progress: tick / 10 }));
    }
    // The mix's first word moved its status (one refetch); its ticks and the track's did not.
    await waitFor(() => expect(listCalls().length).toBe(before + 2));
    act(() => onTrack({ trackId: 't1', status: 'PREVIEW_READY', progress: 1 }));
    await waitFor(() => expect(listCalls().length).toBe(before + 3));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listCalls().length).toBe(before + 3);
  });

  it('refetches when the work area bumps refreshSignal', async () => {
    function WorkArea() {
      const [signal, setSignal] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setSignal((n) => n + 1)}>
            bump
          </button>
          <RecentTracks onOpen={() => undefined} refreshSignal={signal} />
        </>
      );
    }
    renderRoutes([{ path: '/', element: <WorkArea /> }]);
    await waitFor(() => expect(names()).toHaveLength(4));
    const before = listCalls().length;
    tracks.push(track(12, { filename: 'Fresh.wav' }));
    fireEvent.click(screen.getByRole('button', { name: 'bump' }));
    await waitFor(() => expect(names()[0]).toBe('Fresh.wav'));
    expect(listCalls().length).toBe(before + 1);
  });
});
