/**
 * Public option and result types of the engine. Everything here is plain data (structured-clone safe) so it can
 * cross the worker-thread boundary unchanged.
 */

export const MUSICAL_STYLES = [
  'ROCK_INDIE',
  'POP',
  'ACOUSTIC',
  'HIPHOP_GRIME',
  'ELECTRONIC',
  'REGGAE_DUB',
  'ORCHESTRAL',
  'METAL',
  'OTHER',
] as const;
export type MusicalStyle = (typeof MUSICAL_STYLES)[number];

/** Integrated loudness targets in LUFS. */
export const LOUDNESS_PRESETS = { streaming: -14, apple: -16, podcast: -16, club: -9 } as const;
export type LoudnessPreset = keyof typeof LOUDNESS_PRESETS;
/** A preset name or an integrated loudness in LUFS (between -30 and -6). */
export type LoudnessTarget = LoudnessPreset | number;

export const INTENSITIES = ['low', 'medium', 'high'] as const;
export type Intensity = (typeof INTENSITIES)[number];

export const ENHANCE_PRESETS = ['voice', 'podcast', 'music', 'audio', 'video'] as const;
export type EnhancePreset = (typeof ENHANCE_PRESETS)[number];

export const JOB_KINDS = ['analyze', 'master', 'enhance', 'stems', 'mix'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The true-peak ceiling every mastered or enhanced output respects, in dBTP. */
export const TRUE_PEAK_CEILING_DBTP = -1;

export interface MasterOptions {
  /** Loudness target; default `streaming` (-14 LUFS). With a reference and no explicit target, the reference's. */
  target?: LoudnessTarget;
  /** How far the chain moves the track toward its targets; default `medium`. */
  intensity?: Intensity;
  /** Musical style, selects the tonal-balance target curve and dynamics; default `OTHER`. */
  style?: MusicalStyle;
  /** Path of a reference track whose tonal balance (and loudness, unless `target` is given) is matched. */
  reference?: string;
  /** Seed of the dither noise, for reproducible outputs; default 1. */
  seed?: number;
}

export interface EnhanceOptions {
  preset: EnhancePreset;
  /** Overrides the preset's loudness target (voice and podcast -16 LUFS, music -14 LUFS). */
  target?: LoudnessTarget;
  /** Seed of the dither noise; default 1. */
  seed?: number;
}

interface JobBase {
  /** Path of the input file. */
  input: string;
  /**
   * What the uploader claimed the file is (its original file name, extension or MIME type). When given, content
   * that is a different format fails with ENGINE.FORMAT_MISMATCH. When absent the input path's extension is used.
   */
  claimedType?: string;
}

export interface AnalyzeJob extends JobBase {
  kind: 'analyze';
}
export interface MasterJob extends JobBase {
  kind: 'master';
  outDir: string;
  options?: MasterOptions;
}
export interface EnhanceJob extends JobBase {
  kind: 'enhance';
  outDir: string;
  options: EnhanceOptions;
}

// ---------- Stem separation ----------

/** The spec's stem modes. */
export const STEM_MODES = ['vocals', 'drums', 'guitars', 'full'] as const;
export type StemMode = (typeof STEM_MODES)[number];

/** The spec's stem types (33 keys; `hihat_drums` is the spec's alias of `hi_hats`). */
export const STEM_TYPES = [
  'vocals',
  'drums',
  'bass',
  'piano',
  'guitars',
  'strings',
  'wind',
  'keys',
  'other',
  'lead_vocals',
  'backing_vocals',
  'kick_drums',
  'snare_drums',
  'hi_hats',
  'hihat_drums',
  'cymbals',
  'toms',
  'acoustic_guitars',
  'electric_guitars',
  'track1',
  'track2',
  'track3',
  'track4',
  'track5',
  'track6',
  'track7',
  'track8',
  'track9',
  'track10',
  'final',
  'original',
  'preview',
  'master',
  'mixed',
] as const;
export type StemType = (typeof STEM_TYPES)[number];

/**
 * The spec's order of stems (audio-services section 4): "lead vocals, backing vocals, vocals, drums, kick, snare,
 * hihat, cymbals, toms, bass, guitars, acoustic guitars, electric guitars, piano, keys, strings, wind, the rest
 * alphabetically, other always last", over the stem types above (`hihat_drums` next to `hi_hats`).
 */
export const STEM_ORDER: readonly string[] = [
  'lead_vocals',
  'backing_vocals',
  'vocals',
  'drums',
  'kick_drums',
  'snare_drums',
  'hi_hats',
  'hihat_drums',
  'cymbals',
  'toms',
  'bass',
  'guitars',
  'acoustic_guitars',
  'electric_guitars',
  'piano',
  'keys',
  'strings',
  'wind',
];

/** Sorts stem names in the spec's order: the listed ones first, then the rest alphabetically, `other` last. */
export function sortStems<T extends string>(names: readonly T[]): T[] {
  const rank = (name: string) => {
    if (name === 'other') return Number.MAX_SAFE_INTEGER;
    const i = STEM_ORDER.indexOf(name);
    return i >= 0 ? i : STEM_ORDER.length;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || (rank(a) === STEM_ORDER.length ? a.localeCompare(b, 'en') : 0));
}

/** The stems the separator can produce (a subset of STEM_TYPES). */
export type SeparatedStem = 'vocals' | 'drums' | 'bass' | 'piano' | 'guitars' | 'other';

export interface StemsOptions {
  mode: StemMode;
}

export interface StemsJob extends JobBase {
  kind: 'stems';
  outDir: string;
  options: StemsOptions;
}

// ---------- Mixing ----------

/** The spec's instrument groups (`other` is accepted as an alias of `other_group1`). */
export const INSTRUMENT_GROUPS = [
  'bass',
  'drums',
  'kick',
  'snare',
  'cymbals',
  'vocal',
  'backing_vox',
  'percs',
  'strings',
  'synth',
  'fx',
  'keys',
  'brass',
  'e_guitar',
  'acoustic_guitar',
  'backing_track',
  'other_group1',
  'other_group2',
  'other_group3',
  'other_group4',
  'other_group5',
  'other',
] as const;
export type InstrumentGroup = (typeof INSTRUMENT_GROUPS)[number];

export const PRESENCE_SETTINGS = ['NORMAL', 'LEAD', 'BACKGROUND'] as const;
export type PresenceSetting = (typeof PRESENCE_SETTINGS)[number];

export const PAN_PREFERENCES = ['NO_PREFERENCE', 'LEFT', 'CENTRE', 'RIGHT'] as const;
export type PanPreference = (typeof PAN_PREFERENCES)[number];

export const REVERB_PREFERENCES = ['NONE', 'LOW', 'MEDIUM', 'HIGH'] as const;
export type ReverbPreference = (typeof REVERB_PREFERENCES)[number];

export const MIX_SAMPLE_RATES = [44100, 48000] as const;
export type MixSampleRate = (typeof MIX_SAMPLE_RATES)[number];

/** The spec's limits on the number of files in one mix. */
export const MIX_MIN_TRACKS = 2;
export const MIX_MAX_TRACKS = 5;

/** Per-track settings, named as the spec's track settings entry. Absent fields take the spec's defaults. */
export interface TrackSettings {
  /** Default: guessed from the file name (guessInstrumentGroup). */
  instrumentGroup?: InstrumentGroup;
  /** Default NORMAL. */
  presenceSetting?: PresenceSetting;
  /** Default NO_PREFERENCE. */
  panPreference?: PanPreference;
  /** Default NONE. */
  reverbPreference?: ReverbPreference;
}

export interface MixInput {
  /** Path of the WAV file. */
  path: string;
  /** Display name (usually the original file name); names `tracks/<name>.wav` and drives the group guess. */
  name: string;
  settings?: TrackSettings;
}

export interface MixOptions {
  /** Musical style; the spec's default is POP. */
  style: MusicalStyle;
  /** Output sample rate, 44100 (the spec's default) or 48000. */
  sampleRate: MixSampleRate;
  /** Loudness target of the mix (through the mastering chain); default streaming (-14 LUFS). */
  target?: LoudnessTarget;
}

export interface MixJob {
  kind: 'mix';
  /** 2 to 5 WAV files. */
  inputs: MixInput[];
  outDir: string;
  options: MixOptions;
}

export type JobRequest = AnalyzeJob | MasterJob | EnhanceJob | StemsJob | MixJob;

export interface JobProgress {
  /** 0 to 1, never decreasing within a job. */
  progress: number;
  /** Name of the running stage (decode, analyze, eq, dynamics, limiter, outputs, ...). */
  stage: string;
  /**
   * The job thread's own CPU time when this was said, ms (said by a worker thread, where the runtime can tell). The
   * CPU time between two events is the work done between them, whatever the machine's load: what "progress at least
   * every second" bounds.
   */
  cpuMs?: number;
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (event: JobProgress) => void;
}

/** Wall-clock seconds spent in each stage, plus `total`. */
export type StageTimings = Record<string, number>;

/** One separated stem as written. */
export interface StemFile {
  /** Stem type (spec name). */
  name: SeparatedStem;
  /** Absolute path of `<name>.wav`. */
  path: string;
  /** Absolute path of `preview/<name>.mp3` (30 s, the same window for every stem). */
  preview: string;
  durationSec: number;
  /** Integrated loudness, LUFS (-Infinity for silence). */
  integratedLufs: number;
  truePeakDbtp: number;
  rmsDbfs: number;
  /** Share of the mixture's energy in this stem, dB. */
  energyShareDb: number;
  /** Which separator produced it. */
  source: 'classical' | 'neural';
}
