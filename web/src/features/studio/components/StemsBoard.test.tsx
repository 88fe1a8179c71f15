import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import JSZip from 'jszip';
import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import en from '../../../locales/en/stems.json';
import type { StemsBoardProps } from './StemsBoard';
import { FakeAudioContext, fakeAudio, type FakeSource } from '../../../components/board/test/fakeAudioContext';

// jsdom has no canvas: wavesurfer is replaced by a recorder of what the board asks it to draw.
const surfers: Array<{ options: Record<string, unknown>; setTime: jest.Mock; destroy: jest.Mock }> = [];
jest.mock('wavesurfer.js', () => ({
  __esModule: true,
  default: {
    create: (options: Record<string, unknown>) => {
      const surfer = { options, setTime: jest.fn(), destroy: jest.fn(), on: jest.fn() };
      surfers.push(surfer);
      return surfer;
    },
  },
}));
// Jest does not load stylesheets (Vite does in the app).
jest.mock('../../../components/board/board.css', () => ({}));
// Loaded after the mocks above are registered (the transform does not hoist them above imports).
let StemsBoard: typeof import('./StemsBoard').StemsBoard;

const URLS: Record<string, string> = {
  other: '/api/audio/track/t1/stream/other-preview',
  bass: '/api/audio/track/t1/stream/bass-preview',
  zither: '/api/audio/track/t1/stream/zither-preview',
  drums: '/api/audio/track/t1/stream/drums-preview',
  vocals: '/api/audio/track/t1/stream/vocals-preview',
  original: '/api/audio/track/t1/stream/preview',
};
const LENGTHS: Record<string, number> = { other: 3, bass: 4, zither: 5, drums: 6, vocals: 7, original: 8 };

function setup(overrides: Partial<StemsBoardProps> = {}) {
  const fetchAudio = jest.fn(async (url: string) => {
    const type =
      url
        .split('/')
        .at(-1)
        ?.replace(/-(preview|wav)$/, '') ?? '';
    const stem = type === 'preview' ? 'original' : type;
    if (!(stem in LENGTHS)) throw new Error(`unexpected ${url}`);
    return fakeAudio(LENGTHS[stem] ?? 1);
  });
  const props: StemsBoardProps = {
    trackId: 't1',
    filename: '<b>Ndanane</b>.mp3',
    mode: 'full',
    locked: true,
    stems: URLS,
    originalUrl: '/api/audio/track/t1/stream/original',
    fetchAudio,
    ...overrides,
  };
  const view = render(<StemsBoard {...props} />);
  return { ...view, props, fetchAudio };
}

/** Lets the fetches and decodes the board started settle, inside act (they update its state). */
async function loaded(rows: number) {
  await act(async () => {
    for (let i = 0; i < 10 && surfers.length < rows; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
  expect(surfers).toHaveLength(rows);
}

const context = () => FakeAudioContext.instances.at(-1) as FakeAudioContext;
const rowNames = () => screen.getAllByRole('listitem').map((row) => row.getAttribute('data-stem'));
const pressed = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-pressed');
/** Each row's gain in the engine, found through the sources playing into it. */
const gains = () =>
  Object.fromEntries(
    context()
      .playing()
      .map((source: FakeSource) => [
        Object.keys(LENGTHS).find((stem) => LENGTHS[stem] === source.buffer?.duration),
        source.output?.gain.value,
      ]),
  );

beforeAll(async () => {
  ({ StemsBoard } = await import('./StemsBoard'));
  i18n.addResourceBundle('en', 'stems', en, true, true);
});

beforeEach(() => {
  surfers.length = 0;
  FakeAudioContext.instances.length = 0;
  Object.defineProperty(window, 'AudioContext', { value: FakeAudioContext, configurable: true, writable: true });
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
});

afterEach(() => {
  delete (window as { AudioContext?: unknown }).AudioContext;
});

describe('StemsBoard', () => {
  it('shows the original then the stems in the spec order, other last, each drawn at the spec sizes', async () => {
    setup();
    expect(rowNames()).toEqual(['original', 'vocals', 'drums', 'bass', 'zither', 'other']);
    expect(screen.getByRole('heading', { name: 'Stems: Ndanane.mp3' })).toBeTruthy();
    await loaded(6);
    expect(surfers[0]?.options).toMatchObject({ height: 60, barWidth: 2, barGap: 1, barRadius: 2, duration: 8 });
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('solos, un-solos and mutes by the spec rules, and the engine plays the rows accordingly', async () => {
    const user = userEvent.setup();
    setup();
    await loaded(6);
    await user.click(screen.getByRole('button', { name: 'Play all' }));
    expect(gains()).toEqual({ original: 0, vocals: 1, drums: 1, bass: 1, zither: 1, other: 1 });

    await user.click(screen.getByRole('button', { name: 'Solo Vocals' }));
    expect(pressed('Solo Vocals')).toBe('true');
    expect(pressed('Mute Vocals')).toBe('false');
    for (const name of ['Drums', 'Bass', 'zither', 'Other']) expect(pressed(`Mute ${name}`)).toBe('true');
    expect(gains()).toEqual({ original: 0, vocals: 1, drums: 0, bass: 0, zither: 0, other: 0 });

    await user.click(screen.getByRole('button', { name: 'Solo Drums' }));
    expect(pressed('Solo Vocals')).toBe('false');
    expect(pressed('Mute Vocals')).toBe('true');
    expect(gains()).toMatchObject({ vocals: 0, drums: 1 });

    await user.click(screen.getByRole('button', { name: 'Solo Drums' }));
    for (const name of ['Vocals', 'Drums', 'Bass', 'zither', 'Other']) {
      expect(pressed(`Mute ${name}`)).toBe('false');
      expect(pressed(`Solo ${name}`)).toBe('false');
    }

    await user.click(screen.getByRole('button', { name: 'Mute Bass' }));
    expect(pressed('Mute Bass')).toBe('true');
    expect(pressed('Mute Other')).toBe('false');
    expect(gains()).toMatchObject({ bass: 0, other: 1 });
  });

  it('plays the audible stems without the original under them, and the original alone as the A/B choice', async () => {
    const user = userEvent.setup();
    setup();
    await loaded(6);
    // The original is the reference, not a channel of the sum: it has no mute, solo or volume.
    const original = screen.getAllByRole('listitem').find((row) => row.getAttribute('data-stem') === 'original');
    expect(within(original as HTMLElement).queryAllByRole('button')).toEqual([]);
    expect(within(original as HTMLElement).queryByRole('slider')).toBeNull();
    const listen = within(screen.getByRole('group', { name: 'Listen to' }));
    expect(listen.getByRole('button', { name: 'Stems' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Play all' }));
    await user.click(screen.getByRole('button', { name: 'Mute Vocals' }));
    fireEvent.change(screen.getByRole('slider', { name: 'Bass volume' }), { target: { value: '0.5' } });
    // Karaoke: the vocals are gone, as nothing else carries them.
    expect(gains()).toEqual({ original: 0, vocals: 0, drums: 1, bass: 0.5, zither: 1, other: 1 });

    // A/B on the same clock: the original alone, then the stems back as they were set.
    const startedBefore = context().playing().length;
    await user.click(listen.getByRole('button', { name: 'Original' }));
    expect(listen.getByRole('button', { name: 'Original' }).getAttribute('aria-pressed')).toBe('true');
    expect(gains()).toEqual({ original: 1, vocals: 0, drums: 0, bass: 0, zither: 0, other: 0 });
    expect(context().playing()).toHaveLength(startedBefore);
    await user.click(listen.getByRole('button', { name: 'Stems' }));
    expect(gains()).toEqual({ original: 0, vocals: 0, drums: 1, bass: 0.5, zither: 1, other: 1 });
  });

  it('has no A/B switch when there is no original row', async () => {
    const stems = Object.fromEntries(Object.entries(URLS).filter(([stem]) => stem !== 'original'));
    setup({ stems, originalUrl: '' });
    await loaded(5);
    expect(screen.queryByRole('group', { name: 'Listen to' })).toBeNull();
  });

  it('sets a row volume from 0 to 1 by 0.01, shown as a percentage', async () => {
    setup();
    await loaded(6);
    const slider = screen.getByRole('slider', { name: 'Bass volume' }) as HTMLInputElement;
    expect([slider.min, slider.max, slider.step, slider.value]).toEqual(['0', '1', '0.01', '1']);
    expect(slider.getAttribute('aria-valuetext')).toBe('100%');
    fireEvent.change(slider, { target: { value: '0.37' } });
    expect(slider.getAttribute('aria-valuetext')).toBe('37%');
    expect(within(slider.closest('li') as HTMLElement).getByText('37%')).toBeTruthy();
  });

  it('plays every row from one tick, skips 5 s together, and pauses when asked by the page', async () => {
    const user = userEvent.setup();
    const onPlay = jest.fn();
    const { rerender, props } = setup({ onPlay, pauseSignal: 0 });
    await loaded(6);
    await user.click(screen.getByRole('button', { name: 'Play all' }));
    expect(onPlay).toHaveBeenCalledTimes(1);
    expect(
      new Set(
        context()
          .playing()
          .map((source) => JSON.stringify(source.started)),
      ),
    ).toEqual(new Set([JSON.stringify({ when: 0.03, offset: 0 })]));
    await user.click(screen.getByRole('button', { name: 'Forward 5\u00a0s' }));
    // The rows shorter than 5 s are done; the others restart together at 5 s.
    expect(
      context()
        .playing()
        .map((source) => source.started?.offset),
    ).toEqual([5, 5, 5]);
    expect(surfers[0]?.setTime).toHaveBeenLastCalledWith(5);

    rerender(<StemsBoard {...props} pauseSignal={1} />);
    expect(context().playing()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Play all' })).toBeTruthy();
  });

  it('offers the four modes and reports the one picked', async () => {
    const user = userEvent.setup();
    const onModeChange = jest.fn();
    setup({ onModeChange, mode: 'vocals' });
    await loaded(6);
    const modes = within(screen.getByRole('group', { name: 'Separation mode' })).getAllByRole('button');
    expect(modes.map((button) => [button.textContent, button.getAttribute('aria-pressed')])).toEqual([
      ['Vocals', 'true'],
      ['Drums', 'false'],
      ['Guitars', 'false'],
      ['Full', 'false'],
    ]);
    await user.click(screen.getByRole('button', { name: 'Drums', pressed: false }));
    expect(onModeChange).toHaveBeenCalledWith('drums');
  });

  it('keeps "download all" off while locked and says why', async () => {
    setup({ locked: true });
    await loaded(6);
    const download = screen.getByRole('button', { name: 'Download all' }) as HTMLButtonElement;
    expect(download.disabled).toBe(true);
    const reason = document.getElementById(download.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe(en.board.locked);
  });

  it('unlocked, zips every full stem and the original WAV, reusing what the board loaded', async () => {
    const user = userEvent.setup();
    const full = {
      vocals: '/api/audio/track/t1/stream/vocals',
      other: '/api/audio/track/t1/stream/other',
      original: '/api/audio/track/t1/stream/original-wav',
    };
    const saved: Array<{ name: string; blob: Blob }> = [];
    const blobs = new Map<string, Blob>();
    jest.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob as Blob);
      return url;
    });
    jest.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href') ?? '') as Blob });
    });
    const { fetchAudio } = setup({ locked: false, stems: full, filename: 'Ndanane.mp3' });
    await loaded(3);
    await user.click(screen.getByRole('button', { name: 'Download all' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('Ndanane_stems.zip');
    const zip = await JSZip.loadAsync(await (saved[0]?.blob as Blob).arrayBuffer());
    expect(Object.keys(zip.files).sort()).toEqual(['Ndanane_original.wav', 'Ndanane_other.wav', 'Ndanane_vocals.wav']);
    const vocals = await zip.file('Ndanane_vocals.wav')?.async('uint8array');
    expect(vocals).toEqual(new Uint8Array(await fakeAudio(LENGTHS.vocals ?? 0).arrayBuffer()));
    expect(fetchAudio.mock.calls.map(([url]) => url).sort()).toEqual(Object.values(full).sort());
  });

  it('says "Failed to download stems" when a stem cannot be fetched', async () => {
    const user = userEvent.setup();
    const stems = { vocals: '/api/audio/track/t1/stream/vocals', original: '/api/audio/track/t1/stream/original-wav' };
    setup({
      locked: false,
      stems,
      fetchAudio: async (url) => {
        if (url.endsWith('/vocals')) throw new Error('403');
        return fakeAudio(2);
      },
    });
    expect(await screen.findByText('Failed to load track')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Download all' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to download stems');
  });

  it('says so when the browser has no Web Audio, instead of loading for ever', async () => {
    delete (window as { AudioContext?: unknown }).AudioContext;
    setup();
    expect(screen.getByRole('alert').textContent).toBe(en.board.unsupported);
    expect(screen.getAllByText('Failed to load track')).toHaveLength(6);
    expect((screen.getByRole('button', { name: 'Play all' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
