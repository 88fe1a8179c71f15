import {
  guessInstrumentGroup,
  INSTRUMENT_GROUPS,
  MUSICAL_STYLES,
  PAN_PREFERENCES,
  PRESENCE_SETTINGS,
  REVERB_PREFERENCES,
} from '@kora/audio-engine';
import { ValidationFailedError } from '@kora/kernel';
import type { MixTrackSettings } from '../../contracts/events';
import type {
  BatchSettingsRequest,
  FieldCode,
  MixSampleRate,
  MixTrackSettingsChange,
  MusicalStyle,
  Unchecked,
} from '@kora/contracts';

/** The codes the mixing endpoints put in `fields` (`MODULE.PROBLEM`, docs/api.md). */
export const MIXING_FIELD_CODES = {
  nameRequired: 'MIXING.NAME_REQUIRED',
  invalidSettings: 'MIXING.INVALID_SETTINGS',
  invalidStyle: 'MIXING.INVALID_STYLE',
  invalidSampleRate: 'MIXING.INVALID_SAMPLE_RATE',
  instrumentGroup: 'MIXING.INVALID_INSTRUMENT_GROUP',
  presenceSetting: 'MIXING.INVALID_PRESENCE_SETTING',
  panPreference: 'MIXING.INVALID_PAN_PREFERENCE',
  reverbPreference: 'MIXING.INVALID_REVERB_PREFERENCE',
} as const satisfies Record<string, FieldCode>;

type TrackSettingKey = keyof MixTrackSettingsChange;

export const DEFAULT_STYLE: MusicalStyle = 'POP';
export const DEFAULT_SAMPLE_RATE = 44100;

const oneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);

/** Reads a track settings entry; absent fields take the spec's defaults (the group guessed from the file name). */
export function trackSettings(filename: string, input: unknown, current?: MixTrackSettings): MixTrackSettings {
  const given = (typeof input === 'object' && input !== null ? input : {}) as Unchecked<MixTrackSettingsChange>;
  const fields: Record<string, FieldCode> = {};
  const pick = <T extends string>(key: TrackSettingKey, list: readonly T[], fallback: T): T => {
    const value = given[key];
    if (value === undefined || value === null) return fallback;
    if (!oneOf(list, value)) {
      fields[key] = MIXING_FIELD_CODES[key];
      return fallback;
    }
    return value;
  };
  const group = pick(
    'instrumentGroup',
    INSTRUMENT_GROUPS,
    (current?.instrumentGroup as (typeof INSTRUMENT_GROUPS)[number]) ?? guessInstrumentGroup(filename),
  );
  const settings: MixTrackSettings = {
    instrumentGroup: group === 'other' ? 'other_group1' : group,
    presenceSetting: pick('presenceSetting', PRESENCE_SETTINGS, current?.presenceSetting ?? 'NORMAL'),
    panPreference: pick('panPreference', PAN_PREFERENCES, current?.panPreference ?? 'NO_PREFERENCE'),
    reverbPreference: pick('reverbPreference', REVERB_PREFERENCES, current?.reverbPreference ?? 'NONE'),
  };
  if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields);
  return settings;
}

/** Reads a session's style and sample rate, with the spec's defaults (POP, 44100). */
export function sessionSettings(
  input: Unchecked<Omit<BatchSettingsRequest, 'updates'>>,
  current?: { mixingStyle: MusicalStyle; sampleRate: MixSampleRate },
): { mixingStyle: MusicalStyle; sampleRate: MixSampleRate } {
  const fields: Record<string, FieldCode> = {};
  const style: unknown = input.mixingStyle ?? input.musicalStyle ?? current?.mixingStyle ?? DEFAULT_STYLE;
  if (!oneOf(MUSICAL_STYLES, style)) fields.mixingStyle = MIXING_FIELD_CODES.invalidStyle;
  const rate = Number(input.sampleRate ?? current?.sampleRate ?? DEFAULT_SAMPLE_RATE);
  if (rate !== 44100 && rate !== 48000) fields.sampleRate = MIXING_FIELD_CODES.invalidSampleRate;
  if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields);
  return { mixingStyle: style as MusicalStyle, sampleRate: rate as MixSampleRate };
}
