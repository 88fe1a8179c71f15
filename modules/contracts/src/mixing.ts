/**
 * The engine's public enumerations that the mixing API takes and sends (a track's settings, the mix's style and sample
 * rate). The engine declares them (`modules/audio-engine/src/types.ts`, usable without the rest of Kora); they are
 * published here, so the server and the web client read the same lists.
 */
export {
  INSTRUMENT_GROUPS,
  MIX_MAX_TRACKS,
  MIX_MIN_TRACKS,
  MIX_SAMPLE_RATES,
  MUSICAL_STYLES,
  PAN_PREFERENCES,
  PRESENCE_SETTINGS,
  REVERB_PREFERENCES,
  type InstrumentGroup,
  type MixSampleRate,
  type MusicalStyle,
  type PanPreference,
  type PresenceSetting,
  type ReverbPreference,
} from '@kora/audio-engine/types';
