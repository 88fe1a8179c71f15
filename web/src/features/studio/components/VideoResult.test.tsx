import { act, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import en from '../../../locales/en/stems.json';
import { FakeAudioContext, fakeAudio } from '../../../components/board/test/fakeAudioContext';
import type { VideoResultProps } from './VideoResult';

// jsdom has no canvas: wavesurfer is replaced by a recorder of what it is asked to draw and of its listeners.
const surfers: Array<{ options: Record<string, unknown>; handlers: Record<string, (time: number) => void> }> = [];
jest.mock('wavesurfer.js', () => ({
  __esModule: true,
  default: {
    create: (options: Record<string, unknown>) => {
      const surfer = { options, handlers: {} as Record<string, (time: number) => void> };
      surfers.push(surfer);
      return {
        setTime: jest.fn(),
        destroy: jest.fn(),
        on: (event: string, handler: (time: number) => void) => (surfer.handlers[event] = handler),
      };
    },
  },
}));
jest.mock('./video.css', () => ({}));
// Loaded after the mocks above are registered (the transform does not hoist them above imports).
let VideoResult: typeof import('./VideoResult').VideoResult;

const PREVIEW = '/api/audio/track/v1/stream/preview';
const ORIGINAL = '/api/audio/track/v1/stream/original';

let play: jest.Mock;
let pause: jest.Mock;

beforeAll(async () => {
  ({ VideoResult } = await import('./VideoResult'));
  i18n.addResourceBundle('en', 'stems', en, true, true);
});

beforeEach(() => {
  surfers.length = 0;
  // jsdom has no media playback: play resolves and flips `paused` with its event, pause does the reverse.
  play = jest.fn(function (this: HTMLMediaElement) {
    Object.defineProperty(this, 'paused', { value: false, configurable: true });
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  pause = jest.fn(function (this: HTMLMediaElement) {
    Object.defineProperty(this, 'paused', { value: true, configurable: true });
    this.dispatchEvent(new Event('pause'));
  });
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play as never);
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(pause as never);
});

afterEach(() => {
  jest.useRealTimers();
  delete (window as { OfflineAudioContext?: unknown }).OfflineAudioContext;
});

async function setup(overrides: Partial<VideoResultProps> = {}) {
  const fetchMedia = jest.fn(async (url: string) => new Blob([url], { type: 'video/mp4' }));
  const props: VideoResultProps = { previewUrl: PREVIEW, originalUrl: ORIGINAL, fetchMedia, ...overrides };
  const view = render(<VideoResult {...props} />);
  await act(async () => {
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
  return { ...view, props, fetchMedia: props.fetchMedia as jest.Mock };
}

const main = () => screen.getByLabelText(/^(Preview|Original)$/, { selector: 'video' }) as HTMLVideoElement;
const backdrop = () => document.querySelector('video[aria-hidden="true"]') as HTMLVideoElement;
const loadMetadata = (video: HTMLVideoElement) =>
  act(() => {
    Object.defineProperty(video, 'readyState', { value: HTMLMediaElement.HAVE_METADATA, configurable: true });
    Object.defineProperty(video, 'duration', { value: 95, configurable: true });
    fireEvent(video, new Event('loadedmetadata'));
  });

describe('VideoResult', () => {
  it('shows the preview over a blurred copy of itself, fetched with the given fetch', async () => {
    const { fetchMedia } = await setup();
    expect(fetchMedia).toHaveBeenCalledWith(PREVIEW);
    expect(main().src).toMatch(/^blob:/);
    expect(backdrop().src).toBe(main().src);
    expect(backdrop().muted).toBe(true);
    expect(screen.getByRole('button', { name: 'Preview', pressed: true })).toBeTruthy();
  });

  it('starts a play asked for before the video is ready once its metadata has loaded, and not before', async () => {
    const onPlay = jest.fn();
    await setup({ onPlay });
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(onPlay).toHaveBeenCalledTimes(1);
    expect(play).not.toHaveBeenCalled();
    await loadMetadata(main());
    expect(play).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    expect(screen.getByText('0:00 / 1:35')).toBeTruthy();
  });

  it('does not start by itself when nobody asked to play', async () => {
    await setup();
    await loadMetadata(main());
    expect(play).not.toHaveBeenCalled();
  });

  it('shows a first picture before Play: the video loads its data and is moved off 0, its copy too', async () => {
    await setup();
    expect(main().preload).toBe('auto');
    expect(backdrop().preload).toBe('auto');
    expect(main().currentTime).toBe(0);
    await loadMetadata(main());
    expect(main().currentTime).toBeGreaterThan(0);
    expect(main().currentTime).toBeLessThan(0.05);
    expect(backdrop().currentTime).toBe(main().currentTime);
    expect(play).not.toHaveBeenCalled();
  });

  it('switches to the original at the same position, still playing, and back to the start on reset', async () => {
    const { fetchMedia } = await setup();
    await loadMetadata(main());
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    act(() => {
      main().currentTime = 12.5;
    });
    play.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Original', pressed: false }));
    await act(async () => {
      for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(fetchMedia).toHaveBeenLastCalledWith(ORIGINAL);
    const original = screen.getByLabelText('Original', { selector: 'video' }) as HTMLVideoElement;
    await loadMetadata(original);
    expect(original.currentTime).toBe(12.5);
    expect(play).toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Back to start' }));
    expect(original.currentTime).toBe(0);
    expect(backdrop().currentTime).toBe(0);
  });

  it('goes back to the start when asked while the original is still loading, not to where the preview was', async () => {
    await setup();
    const flush = () =>
      act(async () => {
        for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
      });
    // The original fetched once already (shown, then back to the preview): switching to it again is at once.
    fireEvent.click(screen.getByRole('button', { name: 'Original', pressed: false }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Preview', pressed: false }));
    await flush();
    await loadMetadata(main());
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    act(() => {
      main().currentTime = 12.5;
    });
    fireEvent.click(screen.getByRole('button', { name: 'Original', pressed: false }));
    // Back to start before the original's metadata has loaded...
    fireEvent.click(screen.getByRole('button', { name: 'Back to start' }));
    await loadMetadata(main());
    // ...is where it plays from once loaded: the place the preview had is forgotten.
    expect(main().getAttribute('aria-label')).toBe('Original');
    expect(main().currentTime).toBe(0);
  });

  it('pauses when the page says another player started', async () => {
    const { rerender, props } = await setup({ pauseSignal: 0 });
    await loadMetadata(main());
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    rerender(<VideoResult {...props} pauseSignal={1} />);
    expect(pause).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('hides the controls 3 s after a click', async () => {
    await setup();
    jest.useFakeTimers();
    const stage = main().parentElement as HTMLElement;
    fireEvent.click(stage);
    act(() => jest.advanceTimersByTime(2900));
    expect(stage.className).not.toContain('idle');
    act(() => jest.advanceTimersByTime(200));
    expect(stage.className).toContain('video-result__stage--idle');
    fireEvent.click(stage);
    expect(stage.className).not.toContain('idle');
  });

  it('shows the original when the preview cannot be loaded', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { fetchMedia } = await setup({
      fetchMedia: jest.fn(async (url: string) => {
        if (url === PREVIEW) throw new Error('404');
        return new Blob(['original']);
      }),
    });
    expect(fetchMedia).toHaveBeenCalledWith(ORIGINAL);
    expect(screen.getByLabelText('Original', { selector: 'video' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Preview' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('draws the sound beneath the video, and a click on the waveform moves the video there', async () => {
    // The browser decodes the video's sound; here a fake decoder reads the test's samples (95 s).
    Object.defineProperty(window, 'OfflineAudioContext', { value: FakeAudioContext, configurable: true });
    await setup({ fetchMedia: async () => fakeAudio(95) });
    expect(screen.getByText('Audio track')).toBeTruthy();
    expect(surfers[0]?.options).toMatchObject({ height: 60, barWidth: 2, barGap: 1, barRadius: 2, duration: 95 });
    await loadMetadata(main());
    act(() => surfers[0]?.handlers.interaction?.(30));
    expect(main().currentTime).toBe(30);
    expect(screen.getByText('0:30 / 1:35')).toBeTruthy();
  });
});
