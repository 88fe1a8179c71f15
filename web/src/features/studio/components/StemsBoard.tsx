import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sortStems, STEM_MODES, type StemMode } from '@kora/contracts';
import { formatDuration } from '../../../lib/format';
import { buildStemsZip, saveBlob, StemsDownloadError } from '../model/stemsZip';
import { stemColour } from '../../../components/board/colours';
import { StemsEngine } from '../../../components/board/engine';
import { boardGains, initialMixer, type Listen, mixerReducer } from '../../../components/board/mixer';
import { peaksOf } from '../../../components/board/peaks';
import { ChannelControls, type RowLoad, RowWave } from '../../../components/board/RowParts';
import type { WaveformHandle } from '../../../components/board/Waveform';
import '../../../components/board/board.css';

/** Skip back or forward this many seconds (spec §9). */
export const SKIP_SECONDS = 5;

export interface StemsBoardProps {
  trackId: string;
  /** The track's name as stored (HTML is stripped before it is shown or used in file names). */
  filename: string;
  mode: StemMode;
  /** Locked: the rows play the free 30 s previews and "download all" is off. */
  locked: boolean;
  /** Stem type to stream URL, as the track view gives it (`original` there is the original lined up with them). */
  stems: Record<string, string>;
  /** The uploaded original, used as the original row when `stems` has none. */
  originalUrl: string;
  /** Fetches a stream with the user's token. */
  fetchAudio(url: string): Promise<Blob>;
  onModeChange?(mode: StemMode): void;
  /** Called when the board starts playing, so the page can pause any other player. */
  onPlay?(): void;
  /** Pauses the board whenever it changes. */
  pauseSignal?: number;
}

interface Row {
  id: string;
  url: string;
}

const ORIGINAL = 'original';

/** The board's rows: the original first (the reference), then the stems in the spec's order. */
export function boardRows(stems: Record<string, string>, originalUrl: string): Row[] {
  const types = sortStems(Object.keys(stems).filter((type) => type !== ORIGINAL));
  const original = stems[ORIGINAL] ?? originalUrl;
  return [
    ...(original ? [{ id: ORIGINAL, url: original }] : []),
    ...types.map((type) => ({ id: type, url: stems[type] ?? '' })),
  ];
}

/**
 * The board's context: at the stems' own rate (44.1 kHz), so decoding does not resample them (nor hold 9 % more
 * samples on a 48 kHz device), tuned for playback rather than latency. Browsers that refuse the options get a plain one.
 */
function createAudioContext(): AudioContext | null {
  const Context =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return null;
  try {
    return new Context({ sampleRate: 44_100, latencyHint: 'playback' });
  } catch {
    return new Context();
  }
}

/**
 * The stem separation result (spec §2 "Stems"): one row per stem plus the original, each with its colour and waveform,
 * the stems with mute, solo and volume; play all, skip 5 s, a shared position; the mode buttons; "download all" once
 * unlocked. Play all plays what the person listens to: the sum of the audible stems, or the original alone (an A/B
 * switch on the same clock, so switching keeps the place). The original is never summed under the stems: it holds
 * them all, and a muted stem would still be heard in it.
 */
export function StemsBoard({
  trackId,
  filename,
  mode,
  locked,
  stems,
  originalUrl,
  fetchAudio,
  onModeChange,
  onPlay,
  pauseSignal,
}: StemsBoardProps) {
  const { t } = useTranslation('stems');
  const rows = useMemo(() => boardRows(stems, originalUrl), [stems, originalUrl]);
  const rowsKey = rows.map((row) => `${row.id}=${row.url}`).join('\n');
  const stemIds = useMemo(() => rows.filter((row) => row.id !== ORIGINAL).map((row) => row.id), [rows]);
  const reference = rows.some((row) => row.id === ORIGINAL) ? ORIGINAL : undefined;
  const idsKey = stemIds.join('\n');
  const name = filename.replace(/<[^>]*>?/g, '').trim();

  const [mixer, dispatch] = useReducer(mixerReducer, stemIds, initialMixer);
  const [listen, setListen] = useState<Listen>('stems');
  const [loads, setLoads] = useState<Record<string, RowLoad>>({});
  const [unsupported, setUnsupported] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  const [download, setDownload] = useState<{ busy: boolean; error: 'download' | 'zip' | null }>({
    busy: false,
    error: null,
  });

  const engine = useRef<StemsEngine | null>(null);
  const waveforms = useRef(new Map<string, WaveformHandle>());
  const gains = useMemo(() => boardGains(mixer, stemIds, reference, listen), [mixer, stemIds, reference, listen]);
  const gainsNow = useRef(gains);
  gainsNow.current = gains;
  const fetchNow = useRef(fetchAudio);
  fetchNow.current = fetchAudio;
  const onPlayNow = useRef(onPlay);
  onPlayNow.current = onPlay;
  // Each stream is fetched once per URL: "download all" reuses what the board already loaded (same full WAVs).
  const blobs = useRef(new Map<string, Promise<Blob>>());
  const fetchOnce = useCallback((url: string) => {
    let blob = blobs.current.get(url);
    if (!blob) {
      blob = fetchNow.current(url);
      blobs.current.set(url, blob);
      blob.catch(() => blobs.current.delete(url));
    }
    return blob;
  }, []);

  // A new set of rows (another mode, or the unlock swapping previews for full stems) starts a fresh mixer, on the stems.
  useEffect(() => {
    dispatch({ type: 'reset', ids: idsKey ? idsKey.split('\n') : [] });
    setListen('stems');
  }, [idsKey]);

  const showTime = useCallback((seconds: number) => {
    for (const waveform of waveforms.current.values()) waveform.setTime(seconds);
    setPosition(seconds);
  }, []);

  // Load every row into a fresh engine: fetched with the token, decoded, its waveform drawn from the samples.
  useEffect(() => {
    const context = createAudioContext();
    if (!context) {
      setUnsupported(true);
      setLoads(Object.fromEntries(rows.map((row) => [row.id, { status: 'error' } as RowLoad])));
      return;
    }
    const player = new StemsEngine(context);
    engine.current = player;
    player.onEnded = () => {
      setPlaying(false);
      showTime(player.currentTime());
    };
    let cancelled = false;
    const urls = new Set(rows.map((row) => row.url));
    for (const url of [...blobs.current.keys()]) if (!urls.has(url)) blobs.current.delete(url);
    setLoads(Object.fromEntries(rows.map((row) => [row.id, { status: 'loading' } as RowLoad])));
    setPosition(0);
    setDuration(0);
    for (const row of rows) {
      void (async () => {
        try {
          const blob = await fetchOnce(row.url);
          const data = await blob.arrayBuffer();
          if (cancelled) return;
          const buffer = await player.add(row.id, data, gainsNow.current[row.id] ?? 0);
          if (cancelled) return;
          const load: RowLoad = { status: 'ready', peaks: peaksOf(buffer), duration: buffer.duration };
          setLoads((current) => ({ ...current, [row.id]: load }));
          setDuration(player.duration);
        } catch {
          if (!cancelled) setLoads((current) => ({ ...current, [row.id]: { status: 'error' } }));
        }
      })();
    }
    return () => {
      cancelled = true;
      player.dispose();
      engine.current = null;
      setPlaying(false);
    };
    // rowsKey stands for rows (read above): a new array with the same URLs must not reload everything.
  }, [rowsKey, fetchOnce, showTime]);

  // The mixer and the A/B choice drive the gains: the audible stems at their volume, or the original alone.
  useEffect(() => {
    for (const row of rows) engine.current?.setLevel(row.id, gains[row.id] ?? 0);
  }, [gains, rows]);

  // While playing, the cursors and the clock follow the engine once a frame.
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      const player = engine.current;
      if (player) {
        const now = player.currentTime();
        for (const waveform of waveforms.current.values()) waveform.setTime(now);
        setPosition((shown) => (Math.abs(shown - now) >= 0.25 ? now : shown));
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing]);

  const pause = useCallback(() => {
    const player = engine.current;
    if (!player) return;
    player.pause();
    setPlaying(false);
    showTime(player.currentTime());
  }, [showTime]);

  // Another player started on the page: stop this one.
  const lastSignal = useRef(pauseSignal);
  useEffect(() => {
    if (pauseSignal === lastSignal.current) return;
    lastSignal.current = pauseSignal;
    pause();
  }, [pauseSignal, pause]);

  const play = async () => {
    const player = engine.current;
    if (!player) return;
    onPlayNow.current?.();
    await player.play();
    setPlaying(player.isPlaying);
  };

  const seek = (seconds: number) => {
    const player = engine.current;
    if (!player) return;
    player.seek(seconds);
    showTime(player.currentTime());
  };

  const downloadAll = async () => {
    setDownload({ busy: true, error: null });
    const files = rows.map((row) => ({ stem: row.id, url: row.url }));
    try {
      const zip = await buildStemsZip(name, files, fetchOnce);
      saveBlob(zip.blob, zip.name);
      setDownload({ busy: false, error: null });
    } catch (error) {
      setDownload({ busy: false, error: error instanceof StemsDownloadError ? error.failure : 'download' });
    }
  };

  const stemName = (type: string): string => {
    const track = /^track(\d+)$/.exec(type);
    if (track) return t('stem.track', { number: Number(track[1]) });
    return t(`stem.${type}`, { defaultValue: type.replace(/_/g, ' ') });
  };
  const ready = Object.values(loads).some((load) => load.status === 'ready');
  const titleId = `stems-${trackId}-title`;
  const lockedId = `stems-${trackId}-locked`;

  return (
    <section className="stems-board card" aria-labelledby={titleId}>
      <header className="stems-board__header">
        <h3 id={titleId}>{t('board.title', { name })}</h3>
        <div className="segmented" role="group" aria-label={t('board.modes')}>
          {STEM_MODES.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={option === mode}
              disabled={!onModeChange}
              onClick={() => option !== mode && onModeChange?.(option)}
            >
              {t(`mode.${option}`)}
            </button>
          ))}
        </div>
      </header>

      {locked && (
        <p id={lockedId} className="stems-board__notice">
          {t('board.locked')}
        </p>
      )}
      {unsupported && (
        <p className="section-error" role="alert">
          {t('board.unsupported')}
        </p>
      )}

      <div className="stems-board__transport">
        <button type="button" className="button" disabled={!ready} onClick={() => (playing ? pause() : void play())}>
          {playing ? t('board.pause') : t('board.playAll')}
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={!ready}
          onClick={() => seek((engine.current?.currentTime() ?? position) - SKIP_SECONDS)}
        >
          {t('board.back', { seconds: SKIP_SECONDS })}
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={!ready}
          onClick={() => seek((engine.current?.currentTime() ?? position) + SKIP_SECONDS)}
        >
          {t('board.forward', { seconds: SKIP_SECONDS })}
        </button>
        <label className="stems-board__position">
          <span className="visually-hidden">{t('board.position')}</span>
          <input
            type="range"
            min={0}
            max={Math.max(duration, 0.01)}
            step={0.1}
            value={Math.min(position, duration)}
            disabled={!ready}
            aria-valuetext={t('board.time', {
              current: formatDuration(position),
              total: formatDuration(duration),
            })}
            onChange={(event) => seek(Number(event.target.value))}
          />
        </label>
        <span className="stems-board__time" aria-hidden="true">
          {t('board.time', { current: formatDuration(position), total: formatDuration(duration) })}
        </span>
        {reference && (
          <div className="segmented stems-board__listen" role="group" aria-label={t('board.listen')}>
            {(['stems', 'reference'] as const).map((option) => (
              <button key={option} type="button" aria-pressed={listen === option} onClick={() => setListen(option)}>
                {t(option === 'stems' ? 'board.listenStems' : 'board.listenOriginal')}
              </button>
            ))}
          </div>
        )}
      </div>

      <ul className="stems-board__rows" aria-label={t('board.rows')}>
        {rows.map((row) => {
          const channel = mixer[row.id] ?? { volume: 1, muted: false, solo: false };
          const load = loads[row.id] ?? { status: 'loading' };
          const label = stemName(row.id);
          const colour = stemColour(row.id);
          return (
            <li
              key={row.id}
              className={`stem-row${row.id === ORIGINAL ? ' stem-row--original' : ''}`}
              data-stem={row.id}
              style={{ ['--stem-colour' as string]: colour }}
            >
              <div className="stem-row__controls">
                <span className="stem-row__swatch" aria-hidden="true" />
                <span className="stem-row__name">{label}</span>
                {row.id !== reference && (
                  <ChannelControls id={row.id} label={label} channel={channel} dispatch={dispatch} />
                )}
              </div>
              <RowWave
                load={load}
                colour={colour}
                onSeek={seek}
                waveformRef={(handle) => {
                  if (handle) waveforms.current.set(row.id, handle);
                  else waveforms.current.delete(row.id);
                }}
              />
            </li>
          );
        })}
      </ul>

      <footer className="stems-board__footer">
        <button
          type="button"
          className="button"
          disabled={locked || download.busy}
          aria-describedby={locked ? lockedId : undefined}
          onClick={() => void downloadAll()}
        >
          {download.busy ? t('board.downloading') : t('board.downloadAll')}
        </button>
        {download.error && (
          <p className="section-error" role="alert">
            {t(download.error === 'zip' ? 'errors.zip' : 'errors.download')}
          </p>
        )}
      </footer>
    </section>
  );
}
