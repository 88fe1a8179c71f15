import { type Dispatch, type Ref, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Channel, MixerAction } from './mixer';
import { Waveform, type WaveformHandle } from './Waveform';

/** Where a row's audio stands: fetching and decoding, failed, or drawn. */
export type RowLoad =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; peaks: Float32Array[]; duration: number };

/** A board row's mute (M), solo (S) and volume (0-100 %), dispatched to the mixer reducer (texts: `board.row.*`). */
export function ChannelControls({
  id,
  label,
  channel,
  dispatch,
}: {
  id: string;
  label: string;
  channel: Channel;
  dispatch: Dispatch<MixerAction>;
}) {
  const { t, i18n } = useTranslation('common');
  const percent = useMemo(
    () => new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'fr-FR', { style: 'percent' }),
    [i18n.language],
  );
  return (
    <>
      <button
        type="button"
        className="stem-row__toggle"
        aria-pressed={channel.muted}
        aria-label={t('board.row.mute', { name: label })}
        title={t('board.row.mute', { name: label })}
        onClick={() => dispatch({ type: 'toggleMute', id })}
      >
        {t('board.row.muteShort')}
      </button>
      <button
        type="button"
        className="stem-row__toggle stem-row__toggle--solo"
        aria-pressed={channel.solo}
        aria-label={t('board.row.solo', { name: label })}
        title={t('board.row.solo', { name: label })}
        onClick={() => dispatch({ type: 'toggleSolo', id })}
      >
        {t('board.row.soloShort')}
      </button>
      <label className="stem-row__volume">
        <span className="visually-hidden">{t('board.row.volume', { name: label })}</span>
        <input
          type="range"
          min={0}
          max={1}
          step={0.01}
          value={channel.volume}
          aria-valuetext={percent.format(channel.volume)}
          onChange={(event) => dispatch({ type: 'setVolume', id, volume: Number(event.target.value) })}
        />
        <output aria-hidden="true">{percent.format(channel.volume)}</output>
      </label>
    </>
  );
}

/** A board row's waveform once its audio is decoded, else what stands in for it (loading, or the failure). */
export function RowWave({
  load,
  colour,
  onSeek,
  waveformRef,
}: {
  load: RowLoad;
  colour: string;
  onSeek(seconds: number): void;
  waveformRef: Ref<WaveformHandle>;
}) {
  const { t } = useTranslation('common');
  return (
    <div className="stem-row__wave">
      {load.status === 'ready' ? (
        <Waveform ref={waveformRef} peaks={load.peaks} duration={load.duration} colour={colour} onSeek={onSeek} />
      ) : (
        <p className={load.status === 'error' ? 'stem-row__status stem-row__status--error' : 'stem-row__status'}>
          {load.status === 'error' ? t('board.row.failed') : t('board.row.loading')}
        </p>
      )}
    </div>
  );
}
