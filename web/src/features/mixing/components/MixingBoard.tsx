import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TRACK_PALETTE } from '../../../components/board/colours';
import { StemsEngine } from '../../../components/board/engine';
import { boardGains, initialMixer, type Listen, mixerReducer, type Mixer } from '../../../components/board/mixer';
import { peaksOf } from '../../../components/board/peaks';
import { ChannelControls, type RowLoad, RowWave } from '../../../components/board/RowParts';
import type { WaveformHandle } from '../../../components/board/Waveform';
import { formatDuration } from '../../../lib/format';
import type { MixResultRow } from '@kora/contracts';
import { MixerReport } from './MixerReport';
import { boardOrder, finalMixIndex } from '../model/mixing';
import '../../../components/board/board.css';
import './mixing.css';

/** Skip back or forward this many seconds (spec §9). */
export const SKIP_SECONDS = 5;

export interface MixingBoardProps {
  sessionId: string;
  name: string;
  /** Unlocked: "Final Mix", full files and "Download All"; else "Preview Mix" and the 30 s preview. */
  unlocked: boolean;
  rows: readonly MixResultRow[];
  fetchAudio(url: string): Promise<Blob>;
}

/**
 * The gains the engine plays. Play: the audible tracks summed at their mixer gains, or the final mix alone (the A/B
 * choice; the final mix is never summed under the tracks, it already holds them). A row's own play: that row alone,
 * a track at its volume, the final mix at unity.
 */
export function playingGains(
  mixer: Mixer,
  tracks: readonly string[],
  finalId: string | undefined,
  listen: Listen,
  alone: string | null,
): Record<string, number> {
  if (alone === null) return boardGains(mixer, tracks, finalId, listen);
  const ids = finalId === undefined ? tracks : [finalId, ...tracks];
  return Object.fromEntries(ids.map((id) => [id, id !== alone ? 0 : id === finalId ? 1 : (mixer[id]?.volume ?? 1)]));
}

function createAudioContext(): AudioContext | null {
  const Context =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return null;
  try {
    return new Context({ latencyHint: 'playback' });
  } catch {
    return new Context();
  }
}

/** A name without HTML, safe as a file name: characters no file system accepts, and control characters, become _. */
function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/<[^>]*>?/g, '').replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');
  return safe.trim() || 'mix';
}

/**
 * The mixing board (spec §2): "Preview Mix: {name}" or "Final Mix: {name}", the final mix row first, one row per
 * track with its waveform, mute, solo, volume and play; global play/pause, skip 5 s, reset; "Download All" once the
 * mix is unlocked. Each track's row also shows what the mixer decided for it. Play plays the audible tracks summed,
 * or the final mix alone (an A/B switch on the same clock); never the final mix under the tracks.
 */
export function MixingBoard({ sessionId, name, unlocked, rows: given, fetchAudio }: MixingBoardProps) {
  const { t } = useTranslation('mixing');
  const rows = useMemo(() => boardOrder(given), [given]);
  const ids = useMemo(() => rows.map((row) => row.trackId), [rows]);
  // After ordering, the final mix (when there is one) is the first row, and only that one.
  const finalId = finalMixIndex(rows) === 0 ? rows[0]?.trackId : undefined;
  const tracks = useMemo(() => ids.filter((id) => id !== finalId), [ids, finalId]);
  const rowsKey = rows.map((row) => `${row.trackId}=${row.url}`).join('\n');
  const [mixer, dispatch] = useReducer(mixerReducer, tracks, initialMixer);
  const [listen, setListen] = useState<Listen>('stems');
  const [loads, setLoads] = useState<Record<string, RowLoad>>({});
  const [unsupported, setUnsupported] = useState(false);
  const [playing, setPlaying] = useState(false);
  /** The row played on its own (its own play button), else null (the whole board). */
  const [alone, setAlone] = useState<string | null>(null);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  const [download, setDownload] = useState<{ busy: boolean; failed: boolean }>({ busy: false, failed: false });

  const engine = useRef<StemsEngine | null>(null);
  const waveforms = useRef(new Map<string, WaveformHandle>());
  const gainsNow = useRef<Record<string, number>>({});
  gainsNow.current = playingGains(mixer, tracks, finalId, listen, alone);
  const fetchNow = useRef(fetchAudio);
  fetchNow.current = fetchAudio;
  // Each stream is fetched once per URL (spec §7: mixing audio is cached in the browser); "Download All" reuses them.
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

  useEffect(() => {
    dispatch({ type: 'reset', ids: tracks });
    setListen('stems');
    setAlone(null);
  }, [tracks]);

  const showTime = useCallback((seconds: number) => {
    for (const waveform of waveforms.current.values()) waveform.setTime(seconds);
    setPosition(seconds);
  }, []);

  useEffect(() => {
    const context = createAudioContext();
    if (!context) {
      setUnsupported(true);
      setLoads(Object.fromEntries(rows.map((row) => [row.trackId, { status: 'error' } as RowLoad])));
      return;
    }
    const player = new StemsEngine(context);
    engine.current = player;
    player.onEnded = () => {
      setPlaying(false);
      showTime(player.currentTime());
    };
    let cancelled = false;
    setLoads(Object.fromEntries(rows.map((row) => [row.trackId, { status: 'loading' } as RowLoad])));
    setPosition(0);
    setDuration(0);
    for (const row of rows) {
      void (async () => {
        try {
          const data = await (await fetchOnce(row.url)).arrayBuffer();
          if (cancelled) return;
          const buffer = await player.add(row.trackId, data, gainsNow.current[row.trackId] ?? 1);
          if (cancelled) return;
          const load: RowLoad = { status: 'ready', peaks: peaksOf(buffer), duration: buffer.duration };
          setLoads((current) => ({ ...current, [row.trackId]: load }));
          setDuration(player.duration);
        } catch {
          if (!cancelled) setLoads((current) => ({ ...current, [row.trackId]: { status: 'error' } }));
        }
      })();
    }
    return () => {
      cancelled = true;
      player.dispose();
      engine.current = null;
      setPlaying(false);
    };
    // rowsKey stands for rows: a new array with the same URLs must not reload everything.
  }, [rowsKey, fetchOnce, showTime]);

  useEffect(() => {
    const gains = playingGains(mixer, tracks, finalId, listen, alone);
    for (const id of ids) engine.current?.setLevel(id, gains[id] ?? 0);
  }, [mixer, ids, tracks, finalId, listen, alone]);

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

  const pause = () => {
    const player = engine.current;
    if (!player) return;
    player.pause();
    setPlaying(false);
    showTime(player.currentTime());
  };

  const play = async (only: string | null) => {
    const player = engine.current;
    if (!player) return;
    setAlone(only);
    const gains = playingGains(mixer, tracks, finalId, listen, only);
    for (const id of ids) player.setLevel(id, gains[id] ?? 0);
    await player.play();
    setPlaying(player.isPlaying);
  };

  const seek = (seconds: number) => {
    const player = engine.current;
    if (!player) return;
    player.seek(seconds);
    showTime(player.currentTime());
  };

  const reset = () => {
    pause();
    seek(0);
    dispatch({ type: 'reset', ids: tracks });
    setListen('stems');
    setAlone(null);
  };

  const downloadAll = async () => {
    setDownload({ busy: true, failed: false });
    try {
      const base = safeName(name);
      const { default: JSZip } = await import('jszip');
      const zip = new JSZip();
      for (const row of rows) {
        const entry =
          row.trackId === finalId ? `${base}_mix.wav` : `${base}_${safeName(row.name.replace(/\.[^.]+$/, ''))}.wav`;
        zip.file(entry, await fetchOnce(row.url));
      }
      const blob = await zip.generateAsync({ type: 'blob', compression: 'STORE' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `${base}_mix.zip`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      setDownload({ busy: false, failed: false });
    } catch {
      setDownload({ busy: false, failed: true });
    }
  };

  const ready = Object.values(loads).some((load) => load.status === 'ready');
  // Spec §5: the board needs at least one row whose audio could be fetched.
  const noSource = rows.length > 0 && rows.every((row) => loads[row.trackId]?.status === 'error');
  const titleId = `mix-${sessionId}-title`;
  const lockedId = `mix-${sessionId}-locked`;
  const time = t('board.time', { current: formatDuration(position), total: formatDuration(duration) });
  let trackNumber = 0;

  return (
    <section className="stems-board mix-board card" aria-labelledby={titleId}>
      <header className="stems-board__header">
        <h3 id={titleId}>{t(unlocked ? 'board.finalTitle' : 'board.previewTitle', { name })}</h3>
      </header>
      {!unlocked && (
        <p id={lockedId} className="stems-board__notice">
          {t('board.locked')}
        </p>
      )}
      {noSource && !unsupported && (
        <p className="section-error" role="alert">
          {t(unlocked ? 'errors.noSourceMaster' : 'errors.noSourcePreview')}
        </p>
      )}
      {unsupported && (
        <p className="section-error" role="alert">
          {t('board.unsupported')}
        </p>
      )}

      <div className="stems-board__transport">
        <button
          type="button"
          className="button"
          disabled={!ready}
          onClick={() => (playing && alone === null ? pause() : void play(null))}
        >
          {playing && alone === null ? t('board.pause') : t('board.playAll')}
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
        <button type="button" className="button button--ghost button--small" disabled={!ready} onClick={reset}>
          {t('board.reset')}
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
            aria-valuetext={time}
            onChange={(event) => seek(Number(event.target.value))}
          />
        </label>
        <span className="stems-board__time" aria-hidden="true">
          {time}
        </span>
        {finalId !== undefined && (
          <div className="segmented stems-board__listen" role="group" aria-label={t('board.listen')}>
            {(['stems', 'reference'] as const).map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={listen === option}
                onClick={() => {
                  setListen(option);
                  // A row played alone gives way to the choice: it is what play plays from now on.
                  setAlone(null);
                }}
              >
                {t(option === 'stems' ? 'board.listenTracks' : 'board.listenFinal')}
              </button>
            ))}
          </div>
        )}
      </div>

      <ul className="stems-board__rows" aria-label={t('board.rows')}>
        {rows.map((row) => {
          const final = row.trackId === finalId;
          const colour = final ? '#adb5bd' : (TRACK_PALETTE[trackNumber++ % TRACK_PALETTE.length] ?? TRACK_PALETTE[0]);
          const label = final ? t('board.finalMix') : row.name;
          const channel = mixer[row.trackId] ?? { volume: 1, muted: false, solo: false };
          const load = loads[row.trackId] ?? { status: 'loading' };
          const rowPlaying = playing && alone === row.trackId;
          return (
            <li
              key={row.trackId}
              className={`stem-row mix-row${final ? ' stem-row--original mix-row--final' : ''}`}
              data-row={final ? 'final' : row.trackId}
              style={{ ['--stem-colour' as string]: colour }}
            >
              <div className="stem-row__controls">
                <span className="stem-row__swatch" aria-hidden="true" />
                <span className="stem-row__name" title={row.name}>
                  {label}
                </span>
                <button
                  type="button"
                  className="stem-row__toggle mix-row__play"
                  aria-pressed={rowPlaying}
                  aria-label={t(rowPlaying ? 'row.pause' : 'row.play', { name: label })}
                  title={t(rowPlaying ? 'row.pause' : 'row.play', { name: label })}
                  disabled={load.status !== 'ready'}
                  onClick={() => (rowPlaying ? pause() : void play(row.trackId))}
                >
                  {rowPlaying ? '❚❚' : '▶'}
                </button>
                {!final && <ChannelControls id={row.trackId} label={label} channel={channel} dispatch={dispatch} />}
              </div>
              <RowWave
                load={load}
                colour={colour}
                onSeek={seek}
                waveformRef={(handle) => {
                  if (handle) waveforms.current.set(row.trackId, handle);
                  else waveforms.current.delete(row.trackId);
                }}
              />
              {!final && row.mixer && <MixerReport decisions={row.mixer} name={label} />}
            </li>
          );
        })}
      </ul>

      <footer className="stems-board__footer">
        <button
          type="button"
          className="button"
          disabled={!unlocked || download.busy}
          aria-describedby={unlocked ? undefined : lockedId}
          onClick={() => void downloadAll()}
        >
          {download.busy ? t('board.downloading') : t('board.downloadAll')}
        </button>
        {download.failed && (
          <p className="section-error" role="alert">
            {t('errors.download')}
          </p>
        )}
      </footer>
    </section>
  );
}
