import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fakeServer, renderRoutes } from '../../../test/fakes';
import type { LibraryTrack, TrackOptions } from '@kora/contracts';
import { DEFAULT_LIBRARY_SORT, libraryRows, MediaLibraryDialog } from './MediaLibraryDialog';

const MB = 1024 * 1024;
const FILES: LibraryTrack[] = [
  { id: 'a', filename: 'Afrobeat.wav', fileSize: 3 * MB, createdAt: '2026-11-20T10:00:00.000Z' },
  { id: 'b', filename: 'balafon <i>take</i>.wav', fileSize: 12 * MB, createdAt: '2026-11-24T10:00:00.000Z' },
  { id: 'c', filename: 'Coupé-décalé.mp3', fileSize: 800 * 1024, createdAt: '2026-11-22T10:00:00.000Z' },
];

describe('libraryRows', () => {
  it('sorts newest first by default, and by name or size either way', () => {
    const ids = (rows: LibraryTrack[]) => rows.map((row) => row.id);
    expect(ids(libraryRows(FILES, '', DEFAULT_LIBRARY_SORT))).toEqual(['b', 'c', 'a']);
    expect(ids(libraryRows(FILES, '', { key: 'name', descending: false }))).toEqual(['a', 'b', 'c']);
    expect(ids(libraryRows(FILES, '', { key: 'size', descending: true }))).toEqual(['b', 'a', 'c']);
    expect(ids(libraryRows(FILES, '  TAKE ', DEFAULT_LIBRARY_SORT))).toEqual(['b']);
  });
});

describe('media library dialog', () => {
  let answer: () => { status: number; body?: unknown };
  let started: () => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;
  let server: ReturnType<typeof fakeServer>;

  beforeEach(() => {
    answer = () => ({ status: 200, body: { tracks: FILES } });
    started = () => ({ status: 201, body: { id: 'new', filename: 'Afrobeat.wav', status: 'PROCESSING' } });
    server = fakeServer({
      'GET /api/audio/library': () => answer(),
      'POST /api/audio/track/a/reprocess': () => started(),
    });
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  const open = (props: { options?: Omit<TrackOptions, 'service'> } = {}) => {
    const onStarted = jest.fn();
    const onClose = jest.fn();
    renderRoutes([
      {
        path: '/',
        element: (
          <MediaLibraryDialog open service="STEM_SEPARATION" onClose={onClose} onStarted={onStarted} {...props} />
        ),
      },
    ]);
    return { onStarted, onClose, dialog: () => screen.getByRole('dialog', { name: 'Media library' }) };
  };
  const rowNames = () =>
    screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('td')?.textContent);

  it('renders nothing while closed', () => {
    renderRoutes([
      {
        path: '/',
        element: (
          <MediaLibraryDialog
            open={false}
            service="AI_MASTERING"
            onClose={() => undefined}
            onStarted={() => undefined}
          />
        ),
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls).toHaveLength(0);
  });

  it('lists the files newest first, sorts by a column header, and searches the names', async () => {
    const { dialog } = open();
    expect(within(dialog()).getByText('Loading your files...')).toBeTruthy();
    await waitFor(() => expect(rowNames()).toEqual(['balafon take.wav', 'Coupé-décalé.mp3', 'Afrobeat.wav']));
    expect(dialog().className).toContain('modal--xl');
    const row = screen.getAllByRole('row')[1]!;
    expect(within(row).getByText('12 MB')).toBeTruthy();
    expect(within(screen.getAllByRole('row')[2]!).getByText('800 KB')).toBeTruthy();
    const header = (name: string) => screen.getByRole('columnheader', { name });
    expect(header('Date').getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(within(header('Name')).getByRole('button'));
    expect(rowNames()).toEqual(['Afrobeat.wav', 'balafon take.wav', 'Coupé-décalé.mp3']);
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header('Name')).getByRole('button'));
    expect(rowNames()).toEqual(['Coupé-décalé.mp3', 'balafon take.wav', 'Afrobeat.wav']);
    fireEvent.click(within(header('Size')).getByRole('button'));
    expect(rowNames()).toEqual(['balafon take.wav', 'Afrobeat.wav', 'Coupé-décalé.mp3']);

    fireEvent.change(screen.getByLabelText('Search your files'), { target: { value: 'AFRO' } });
    expect(rowNames()).toEqual(['Afrobeat.wav']);
    fireEvent.change(screen.getByLabelText('Search your files'), { target: { value: 'zouk' } });
    expect(screen.getByText('No file matches “zouk”.')).toBeTruthy();
  });

  it('asks for the files the chosen service and preset take, and says how many others are left out', async () => {
    answer = () => ({ status: 200, body: { tracks: FILES.slice(0, 1), hidden: 2 } });
    open({ options: { preset: 'video' } });
    await waitFor(() => expect(rowNames()).toEqual(['Afrobeat.wav']));
    const asked = server.calls.find((item) => item.path === '/api/audio/library')!;
    expect(Object.fromEntries(asked.query)).toEqual({ service: 'STEM_SEPARATION', preset: 'video' });
    expect(screen.getByText("2 other files can't be used for this service, so they aren't listed.")).toBeTruthy();
  });

  it('says when no file fits the service', async () => {
    answer = () => ({ status: 200, body: { tracks: [], hidden: 3 } });
    open();
    await waitFor(() =>
      expect(
        screen.getByText('None of your files can be used for this service (size, length or kind). Upload a new one.'),
      ).toBeTruthy(),
    );
  });

  it('says when the library is empty', async () => {
    answer = () => ({ status: 200, body: { tracks: [] } });
    open();
    await waitFor(() =>
      expect(screen.getByText('Your media library is empty. The files you upload will appear here.')).toBeTruthy(),
    );
  });

  it('says when the library cannot be loaded, and loads it again on request', async () => {
    answer = () => ({ status: 500, body: { statusCode: 500, code: 'HTTP.INTERNAL_SERVER_ERROR', message: 'boom' } });
    open();
    await waitFor(() => expect(screen.getByText("We couldn't load your media library.")).toBeTruthy());
    answer = () => ({ status: 200, body: { tracks: FILES } });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rowNames()).toHaveLength(3));
  });

  it('starts a new job from the chosen file: an overlay, every row disabled, then the new track', async () => {
    let finish!: () => void;
    const answered = new Promise<void>((resolve) => (finish = resolve));
    started = async () => {
      await answered;
      return { status: 201, body: { id: 'new', filename: 'Afrobeat.wav', status: 'STEMS_PROCESSING' } };
    };
    server = fakeServer({
      'GET /api/audio/library': () => answer(),
      'POST /api/audio/track/a/reprocess': () => started(),
    });
    const { onStarted } = open({ options: { mode: 'drums' } });
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: 'Afrobeat.wav' }));
    await waitFor(() => expect(screen.getByText('Starting a new job from “Afrobeat.wav”...')).toBeTruthy());
    for (const name of ['balafon take.wav', 'Coupé-décalé.mp3', 'Afrobeat.wav']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    }
    finish();
    await waitFor(() => expect(onStarted).toHaveBeenCalledWith(expect.objectContaining({ id: 'new' })));
    const call = server.calls.find((item) => item.method === 'POST')!;
    expect(call.body).toEqual({ service: 'STEM_SEPARATION', mode: 'drums' });
  });

  it('says why a file was refused, and leaves the rows usable', async () => {
    started = () => ({
      status: 409,
      body: {
        statusCode: 409,
        code: 'TRACKS.ALREADY_PROCESSING',
        message: 'There is already a track being processed. Please wait for it to complete.',
      },
    });
    const { onStarted } = open();
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: 'Afrobeat.wav' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'There is already a track being processed. Please wait for it to complete.',
      ),
    );
    expect(onStarted).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Afrobeat.wav' }) as HTMLButtonElement).disabled).toBe(false);

    started = () => ({
      status: 400,
      body: { statusCode: 400, code: 'UPLOAD.FILE_SIZE_MIN', message: 'too small', details: { limitMb: 1 } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Afrobeat.wav' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('This file is too small for this service (at least 1 MB).'),
    );
  });
});
