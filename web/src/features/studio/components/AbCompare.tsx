import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { type AbGains } from '../model/levelMatch';
import { register } from '../model/nowPlaying';

type Side = 'original' | 'result';

interface AbCompareProps {
  originalUrl: string;
  resultUrl: string;
  /** Where the result starts in the original, seconds (the preview is a 30-second part of the song). */
  offsetSec: number;
  gains: AbGains;
  resultLabel: string;
  fetchAudio(url: string): Promise<Blob>;
}

/**
 * A/B: the original and the result on one timeline, switched at the same moment of the song, each turned down so
 * both play equally loud (an untreated ear prefers whatever is louder).
 */
export function AbCompare({ originalUrl, resultUrl, offsetSec, gains, resultLabel, fetchAudio }: AbCompareProps) {
  const { t, i18n } = useTranslation();
  const original = useRef<HTMLAudioElement>(null);
  const result = useRef<HTMLAudioElement>(null);
  const [side, setSide] = useState<Side>('result');
  const [playing, setPlaying] = useState(false);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const a = original.current;
    const b = result.current;
    if (!a || !b) return undefined;
    const offs = [register(a), register(b)];
    const urls: string[] = [];
    let cancelled = false;
    Promise.all([fetchAudio(originalUrl), fetchAudio(resultUrl)])
      .then(([originalBlob, resultBlob]) => {
        if (cancelled) return;
        urls.push(URL.createObjectURL(originalBlob), URL.createObjectURL(resultBlob));
        a.src = urls[0]!;
        b.src = urls[1]!;
        setReady(true);
      })
      .catch((error: unknown) => {
        console.warn('Failed to load track', error);
        if (!cancelled) setFailed(true);
      });
    const sync = () => setPlaying(!a.paused || !b.paused);
    for (const element of [a, b]) {
      element.addEventListener('play', sync);
      element.addEventListener('pause', sync);
      element.addEventListener('ended', sync);
    }
    return () => {
      cancelled = true;
      offs.forEach((off) => off());
      for (const element of [a, b]) {
        element.removeEventListener('play', sync);
        element.removeEventListener('pause', sync);
        element.removeEventListener('ended', sync);
      }
      urls.forEach((url) => URL.revokeObjectURL(url));
    };
  }, [originalUrl, resultUrl, fetchAudio]);

  useEffect(() => {
    if (original.current) original.current.volume = gains.original;
    if (result.current) result.current.volume = gains.result;
  }, [gains, ready]);

  const element = (which: Side) => (which === 'original' ? original.current : result.current);
  /** The position on the result's timeline. */
  const position = (which: Side): number => {
    const current = element(which)?.currentTime ?? 0;
    return which === 'original' ? Math.max(0, current - offsetSec) : current;
  };
  const seek = (which: Side, at: number) => {
    const target = element(which);
    if (target) target.currentTime = which === 'original' ? at + offsetSec : at;
  };

  const toggle = () => {
    const current = element(side);
    if (!current) return;
    if (!current.paused) {
      current.pause();
      return;
    }
    if (side === 'original' && current.currentTime < offsetSec) seek('original', 0);
    current.play().catch((error: unknown) => console.warn('Playback failed', error));
  };

  const switchTo = (next: Side) => {
    if (next === side) return;
    const from = element(side);
    const to = element(next);
    if (!from || !to) return;
    const wasPlaying = !from.paused;
    seek(next, position(side));
    from.pause();
    setSide(next);
    if (wasPlaying) to.play().catch((error: unknown) => console.warn('Playback failed', error));
  };

  const difference = Math.abs(gains.differenceLu);
  return (
    <section className="ab" aria-labelledby="ab-title">
      <h3 id="ab-title">{t('studio:ab.title')}</h3>
      <div className="ab__controls">
        <button type="button" className="button" disabled={!ready} onClick={toggle}>
          {t(playing ? 'studio:ab.pause' : 'studio:ab.play')}
        </button>
        <div className="segmented" role="group" aria-label={t('studio:ab.switch')}>
          <button
            type="button"
            aria-pressed={side === 'original'}
            disabled={!ready}
            onClick={() => switchTo('original')}
          >
            {t('studio:ab.original')}
          </button>
          <button type="button" aria-pressed={side === 'result'} disabled={!ready} onClick={() => switchTo('result')}>
            {resultLabel}
          </button>
        </div>
      </div>
      <p className="ab__note" data-testid="ab-note">
        {difference >= 0.1
          ? t(gains.differenceLu > 0 ? 'studio:ab.matchedLouder' : 'studio:ab.matchedQuieter', {
              db: formatNumber(difference, i18n.language, 1),
            })
          : t('studio:ab.matchedEqual')}
      </p>
      {failed && (
        <p className="field__error" role="alert">
          {t('studio:player.loadFailed')}
        </p>
      )}
      <audio ref={original} preload="auto" data-ab="original" />
      <audio ref={result} preload="auto" data-ab="result" />
    </section>
  );
}
