import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  INSTRUMENT_GROUPS,
  MUSICAL_STYLES,
  PAN_PREFERENCES,
  PRESENCE_SETTINGS,
  REVERB_PREFERENCES,
  SAMPLE_RATES,
  type MusicalStyle,
  type SampleRate,
  type TrackSettings,
} from '../model/mixing';
import type { SettingsChange } from '../model/settingsQueue';

export interface PanelTrack {
  /** The file's name (before upload) or the track's id (after). */
  key: string;
  name: string;
  settings: TrackSettings;
}

interface TrackSettingsPanelProps {
  tracks: readonly PanelTrack[];
  style: MusicalStyle;
  sampleRate: SampleRate;
  disabled?: boolean;
  onTrackChange(key: string, change: SettingsChange): void;
  onSessionChange(change: { style?: MusicalStyle; sampleRate?: SampleRate }): void;
  /** A track can be taken out (before upload). */
  onRemove?(key: string): void;
}

/** The track settings panel (spec §2): per track group, presence, pan and reverb; the mix's style and sample rate. */
export function TrackSettingsPanel({
  tracks,
  style,
  sampleRate,
  disabled = false,
  onTrackChange,
  onSessionChange,
  onRemove,
}: TrackSettingsPanelProps) {
  const { t } = useTranslation('mixing');
  const id = useId();
  return (
    <div className="mix-settings">
      <div className="mix-settings__global">
        <label className="field">
          <span>{t('settings.style')}</span>
          <select
            value={style}
            disabled={disabled}
            onChange={(event) => onSessionChange({ style: event.target.value as MusicalStyle })}
          >
            {MUSICAL_STYLES.map((option) => (
              <option key={option} value={option}>
                {t(`style.${option}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('settings.sampleRate')}</span>
          <select
            value={sampleRate}
            disabled={disabled}
            onChange={(event) => onSessionChange({ sampleRate: Number(event.target.value) as SampleRate })}
          >
            {SAMPLE_RATES.map((rate) => (
              <option key={rate} value={rate}>
                {t(`sampleRate.${rate}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ul className="mix-settings__tracks" aria-label={t('settings.tracks')}>
        {tracks.map((track, index) => {
          const field = (name: string) => `${id}-${index}-${name}`;
          return (
            <li key={track.key} className="mix-settings__track" data-track={track.name}>
              <div className="mix-settings__head">
                <span className="mix-settings__name" title={track.name}>
                  {track.name}
                </span>
                {onRemove && (
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    disabled={disabled}
                    aria-label={t('files.remove', { name: track.name })}
                    onClick={() => onRemove(track.key)}
                  >
                    {t('files.removeShort')}
                  </button>
                )}
              </div>
              <div className="mix-settings__fields">
                <label className="field" htmlFor={field('group')}>
                  <span>{t('settings.group')}</span>
                  <select
                    id={field('group')}
                    value={track.settings.instrumentGroup}
                    disabled={disabled}
                    onChange={(event) =>
                      onTrackChange(track.key, {
                        instrumentGroup: event.target.value as TrackSettings['instrumentGroup'],
                      })
                    }
                  >
                    {INSTRUMENT_GROUPS.map((group) => (
                      <option key={group} value={group}>
                        {t(`group.${group}`)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field" htmlFor={field('presence')}>
                  <span>{t('settings.presence')}</span>
                  <select
                    id={field('presence')}
                    value={track.settings.presenceSetting}
                    disabled={disabled}
                    onChange={(event) =>
                      onTrackChange(track.key, {
                        presenceSetting: event.target.value as TrackSettings['presenceSetting'],
                      })
                    }
                  >
                    {PRESENCE_SETTINGS.map((option) => (
                      <option key={option} value={option}>
                        {t(`presence.${option}`)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field" htmlFor={field('pan')}>
                  <span>{t('settings.pan')}</span>
                  <select
                    id={field('pan')}
                    value={track.settings.panPreference}
                    disabled={disabled}
                    onChange={(event) =>
                      onTrackChange(track.key, { panPreference: event.target.value as TrackSettings['panPreference'] })
                    }
                  >
                    {PAN_PREFERENCES.map((option) => (
                      <option key={option} value={option}>
                        {t(`pan.${option}`)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field" htmlFor={field('reverb')}>
                  <span>{t('settings.reverb')}</span>
                  <select
                    id={field('reverb')}
                    value={track.settings.reverbPreference}
                    disabled={disabled}
                    onChange={(event) =>
                      onTrackChange(track.key, {
                        reverbPreference: event.target.value as TrackSettings['reverbPreference'],
                      })
                    }
                  >
                    {REVERB_PREFERENCES.map((option) => (
                      <option key={option} value={option}>
                        {t(`reverb.${option}`)}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
