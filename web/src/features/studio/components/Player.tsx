import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format';
import { register } from '../model/nowPlaying';

/** The spec's waveform (§9): 60 px high, bars 2 px wide, 1 px apart, rounded 2 px. */
export const WAVEFORM = { height: 60, barWidth: 2, barGap: 1, barRadius: 2 } as const;

const cssColour = (name: string, fallback: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

interface PlayerProps {
  label: string;
  url: string;
  fetchAudio(url: string): Promise<Blob>;
}

/**
 * One player: the file fetched as a blob with the bearer token, its waveform drawn by wavesurfer.js over the
 * page's own audio element, play and pause, the time. Starting it pauses whatever else was playing.
 */
export function Player({ label, url, fetchAudio }: PlayerProps) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement>(null);
  const wave = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);

  useEffect(() => {
    const element = audio.current;
    const container = wave.current;
    if (!element || !container) return undefined;
    const unregister = register(element);
    let cancelled = false;
    let destroy: (() => void) | null = null;
    setState('loading');
    (async () => {
      try {
        const [blob, { default: WaveSurfer }] = await Promise.all([fetchAudio(url), import('wavesurfer.js')]);
        if (cancelled) return;
        const surfer = WaveSurfer.create({
          container,
          media: element,
          ...WAVEFORM,
          waveColor: cssColour('--muted', '#a9aebb'),
          progressColor: cssColour('--accent', '#f5a524'),
          cursorColor: cssColour('--text', '#f2f3f5'),
        });
        destroy = () => surfer.destroy();
        surfer.on('ready', (seconds) => {
          if (!cancelled) {
            setDuration(seconds);
            setState('ready');
          }
        });
        await surfer.loadBlob(blob);
      } catch (error) {
        if (!cancelled) {
          console.warn('Failed to load track', error);
          setState('error');
        }
      }
    })();
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    const onTime = () => setTime(element.currentTime);
    element.addEventListener('play', onPlay);
    element.addEventListener('pause', onPause);
    element.addEventListener('ended', onPause);
    element.addEventListener('timeupdate', onTime);
    return () => {
      cancelled = true;
      element.removeEventListener('play', onPlay);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('ended', onPause);
      element.removeEventListener('timeupdate', onTime);
      unregister();
      destroy?.();
    };
  }, [url, fetchAudio]);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) element.play().catch((error: unknown) => console.warn('Playback failed', error));
    else element.pause();
  };

  return (
    <div className="player" data-state={state}>
      <div className="player__head">
        <button
          type="button"
          className="player__toggle"
          disabled={state !== 'ready'}
          aria-label={t(playing ? 'studio:player.pause' : 'studio:player.play', { name: label })}
          onClick={toggle}
        >
          <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
        </button>
        <span className="player__label">{label}</span>
        <span className="player__time">
          {formatDuration(time)} / {formatDuration(duration)}
        </span>
      </div>
      <div ref={wave} className="player__wave" />
      {state === 'loading' && <p className="muted player__status">{t('studio:player.loading')}</p>}
      {state === 'error' && (
        <p className="field__error player__status" role="alert">
          {t('studio:player.loadFailed')}
        </p>
      )}
      <audio ref={audio} preload="metadata" />
    </div>
  );
}
