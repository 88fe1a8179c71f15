import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format';
import { peaksOf } from '../../../components/board/peaks';
import { Waveform, type WaveformHandle } from '../../../components/board/Waveform';
import './video.css';

export interface VideoResultProps {
  /** The enhanced preview's stream URL. */
  previewUrl: string;
  /** The uploaded video's stream URL. */
  originalUrl: string;
  /** Fetches a stream with the user's token. */
  fetchMedia(url: string): Promise<Blob>;
  /** Called when the video starts playing, so the page can pause any other player. */
  onPlay?(): void;
  /** Pauses the video whenever it changes. */
  pauseSignal?: number;
}

type Version = 'preview' | 'original';
const VERSIONS: readonly Version[] = ['preview', 'original'];

/** The overlay hides this long after the last click (spec §2). */
export const CONTROLS_HIDE_MS = 3000;
/** Where a video that has not played yet is put, so its first picture shows (a millisecond: nothing is skipped). */
export const POSTER_SEEK_SECONDS = 0.001;
/** The blurred copy is put back on the main video's time when it drifts further than this. */
const BACKDROP_DRIFT_SECONDS = 0.25;

type Source = { status: 'loading' } | { status: 'error' } | { status: 'ready'; url: string };

/** A version's sound, decoded for its waveform. */
interface DecodedSound {
  peaks: Float32Array[];
  duration: number;
}

/** Decodes a video's sound for its waveform, without an audio output (an offline context needs no gesture). */
async function decodeSound(blob: Blob): Promise<DecodedSound> {
  const data = await blob.arrayBuffer();
  const Offline = window.OfflineAudioContext;
  if (Offline) {
    const buffer = await new Offline(1, 1, 44_100).decodeAudioData(data);
    return { peaks: peaksOf(buffer), duration: buffer.duration };
  }
  const context = new AudioContext();
  try {
    const buffer = await context.decodeAudioData(data);
    return { peaks: peaksOf(buffer), duration: buffer.duration };
  } finally {
    void context.close();
  }
}

/**
 * The enhancement result of a video (spec §2 "Video"): the video over a blurred copy of itself, reset, play/pause,
 * the time, a switch between the enhanced preview and the original that keeps the position, and the sound's waveform
 * beneath. The overlay hides 3 s after a click; a play asked for before the video is ready starts once its metadata
 * has loaded. If the preview cannot be loaded, the original is shown (spec §8).
 */
export function VideoResult({ previewUrl, originalUrl, fetchMedia, onPlay, pauseSignal }: VideoResultProps) {
  const { t } = useTranslation('stems');
  const [version, setVersion] = useState<Version>('preview');
  const [sources, setSources] = useState<Record<Version, Source>>({
    preview: { status: 'loading' },
    original: { status: 'loading' },
  });
  const [sounds, setSounds] = useState<Partial<Record<Version, DecodedSound>>>({});
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [controlsShown, setControlsShown] = useState(true);

  const video = useRef<HTMLVideoElement>(null);
  const backdrop = useRef<HTMLVideoElement>(null);
  const waveform = useRef<WaveformHandle>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** The user pressed play before the video could play: it starts on `loadedmetadata`. */
  const wantsPlay = useRef(false);
  /** The position to restore once the other version has loaded. */
  const resumeAt = useRef(0);
  const fetchNow = useRef(fetchMedia);
  fetchNow.current = fetchMedia;
  const onPlayNow = useRef(onPlay);
  onPlayNow.current = onPlay;

  const urls: Record<Version, string> = { preview: previewUrl, original: originalUrl };
  const requested = useRef(new Set<Version>());

  // Fetch a version the first time it is shown; decode its sound for the waveform beside it.
  useEffect(() => {
    if (requested.current.has(version)) return;
    requested.current.add(version);
    const which = version;
    void (async () => {
      let blob: Blob;
      try {
        blob = await fetchNow.current(urls[which]);
      } catch (error) {
        setSources((current) => ({ ...current, [which]: { status: 'error' } }));
        if (which === 'preview') {
          console.warn('Video preview failed to load; showing the original', error);
          setVersion('original');
        }
        return;
      }
      const url = URL.createObjectURL(blob);
      setSources((current) => ({ ...current, [which]: { status: 'ready', url } }));
      try {
        const sound = await decodeSound(blob);
        setSounds((current) => ({ ...current, [which]: sound }));
      } catch {
        // No waveform for a sound the browser cannot decode; the video still plays.
      }
    })();
    // urls is rebuilt each render from the two props, which do not change for a given result.
  }, [version]);

  // Object URLs live as long as the player.
  const objectUrls = useRef<string[]>([]);
  useEffect(() => {
    for (const source of Object.values(sources)) {
      if (source.status === 'ready' && !objectUrls.current.includes(source.url)) objectUrls.current.push(source.url);
    }
  }, [sources]);
  useEffect(
    () => () => {
      for (const url of objectUrls.current) URL.revokeObjectURL(url);
      if (hideTimer.current) clearTimeout(hideTimer.current);
    },
    [],
  );

  const start = useCallback(async (element: HTMLVideoElement) => {
    try {
      await element.play();
    } catch {
      // Refused (no gesture, or the source vanished): back to paused.
      wantsPlay.current = false;
      setPlaying(false);
    }
  }, []);

  const play = useCallback(() => {
    const element = video.current;
    wantsPlay.current = true;
    onPlayNow.current?.();
    // Not ready yet: loadedmetadata starts it.
    if (!element || element.readyState < HTMLMediaElement.HAVE_METADATA) return;
    void start(element);
  }, [start]);

  const pause = useCallback(() => {
    wantsPlay.current = false;
    video.current?.pause();
  }, []);

  const lastSignal = useRef(pauseSignal);
  useEffect(() => {
    if (pauseSignal === lastSignal.current) return;
    lastSignal.current = pauseSignal;
    pause();
  }, [pauseSignal, pause]);

  const seek = useCallback((seconds: number) => {
    const element = video.current;
    if (!element) return;
    const end = Number.isFinite(element.duration) ? element.duration : seconds;
    element.currentTime = Math.min(Math.max(0, seconds), end);
    // Asked while the other version is still on its way: this place, not the one it was switched at, is where it
    // resumes once loaded (0: none to restore).
    resumeAt.current = element.currentTime;
    if (backdrop.current) backdrop.current.currentTime = element.currentTime;
    setTime(element.currentTime);
    waveform.current?.setTime(element.currentTime);
  }, []);

  const switchTo = (next: Version) => {
    if (next === version) return;
    const element = video.current;
    resumeAt.current = element?.currentTime ?? 0;
    wantsPlay.current = element ? !element.paused : false;
    setVersion(next);
  };

  const revealControls = () => {
    setControlsShown(true);
    if (hideTimer.current) clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setControlsShown(false), CONTROLS_HIDE_MS);
  };

  // The cursor follows the video smoothly while it plays.
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      const element = video.current;
      if (element) waveform.current?.setTime(element.currentTime);
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing]);

  const source = sources[version];
  const sound = sounds[version];
  const src = source.status === 'ready' ? source.url : undefined;

  return (
    <section className="video-result card" aria-label={t('video.title')}>
      <div
        className={`video-result__stage${controlsShown ? '' : ' video-result__stage--idle'}`}
        onClick={revealControls}
        onFocus={() => {
          if (hideTimer.current) clearTimeout(hideTimer.current);
          setControlsShown(true);
        }}
      >
        {src && (
          <video
            ref={backdrop}
            className="video-result__backdrop"
            src={src}
            muted
            playsInline
            preload="auto"
            aria-hidden="true"
            tabIndex={-1}
          />
        )}
        {src ? (
          <video
            ref={video}
            className="video-result__video"
            src={src}
            playsInline
            preload="auto"
            aria-label={t(`video.${version}`)}
            onLoadedMetadata={(event) => {
              const element = event.currentTarget;
              setDuration(Number.isFinite(element.duration) ? element.duration : 0);
              if (resumeAt.current > 0) {
                element.currentTime = resumeAt.current;
                if (backdrop.current) backdrop.current.currentTime = resumeAt.current;
                resumeAt.current = 0;
              } else if (element.currentTime === 0 && !wantsPlay.current) {
                // A poster frame: a video left at 0 before it ever played shows black in Chromium until Play; a seek
                // (too small to see or hear) makes the browser decode and paint the first picture.
                element.currentTime = POSTER_SEEK_SECONDS;
                if (backdrop.current) backdrop.current.currentTime = POSTER_SEEK_SECONDS;
              }
              setTime(element.currentTime);
              if (wantsPlay.current) void start(element);
            }}
            onTimeUpdate={(event) => {
              const element = event.currentTarget;
              setTime(element.currentTime);
              const copy = backdrop.current;
              if (copy && Math.abs(copy.currentTime - element.currentTime) > BACKDROP_DRIFT_SECONDS) {
                copy.currentTime = element.currentTime;
              }
              if (element.paused) waveform.current?.setTime(element.currentTime);
            }}
            onPlay={() => {
              setPlaying(true);
              void backdrop.current?.play().catch(() => undefined);
            }}
            onPause={() => {
              setPlaying(false);
              backdrop.current?.pause();
            }}
            onEnded={() => {
              wantsPlay.current = false;
              setPlaying(false);
            }}
          />
        ) : (
          <p className={source.status === 'error' ? 'video-result__status section-error' : 'video-result__status'}>
            {source.status === 'error' ? t('video.failed') : t('video.loading')}
          </p>
        )}

        <div className="video-result__controls">
          <button type="button" className="button button--small" onClick={() => (playing ? pause() : play())}>
            {playing ? t('video.pause') : t('video.play')}
          </button>
          <button type="button" className="button button--ghost button--small" disabled={!src} onClick={() => seek(0)}>
            {t('video.restart')}
          </button>
          <span className="video-result__time">
            {t('video.time', { current: formatDuration(time), total: formatDuration(duration) })}
          </span>
          <div className="segmented video-result__versions" role="group" aria-label={t('video.version')}>
            {VERSIONS.map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={option === version}
                disabled={sources[option].status === 'error'}
                onClick={() => switchTo(option)}
              >
                {t(`video.${option}`)}
              </button>
            ))}
          </div>
        </div>
      </div>

      <label className="video-result__position">
        <span className="visually-hidden">{t('video.position')}</span>
        <input
          type="range"
          min={0}
          max={Math.max(duration, 0.01)}
          step={0.1}
          value={Math.min(time, duration)}
          disabled={!src || duration <= 0}
          aria-valuetext={t('video.time', { current: formatDuration(time), total: formatDuration(duration) })}
          onChange={(event) => seek(Number(event.target.value))}
        />
      </label>

      {sound && (
        <figure className="video-result__audio">
          <figcaption className="muted">{t('video.audio')}</figcaption>
          <Waveform ref={waveform} peaks={sound.peaks} duration={sound.duration} colour="#f5a524" onSeek={seek} />
        </figure>
      )}
    </section>
  );
}
