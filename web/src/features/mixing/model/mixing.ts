/**
 * The mixing studio's rules (spec §3, §5, §9) as pure functions: the enumerations, the instrument group guessed from
 * a file name, the defaults, the file checks, and the board's row order.
 */

import {
  INSTRUMENT_GROUPS as ENGINE_GROUPS,
  type InstrumentGroup as EngineGroup,
  MIX_MAX_TRACKS,
  MIX_MIN_TRACKS,
  MIX_SAMPLE_RATES,
  type MixSampleRate,
  type MixTrackSettings,
  type MusicalStyle,
} from '@kora/contracts';

export {
  MUSICAL_STYLES,
  PAN_PREFERENCES,
  PRESENCE_SETTINGS,
  REVERB_PREFERENCES,
  type MusicalStyle,
  type PanPreference,
  type PresenceSetting,
  type ReverbPreference,
} from '@kora/contracts';

/** The groups a track can be given: the engine's, without `other` (the engine's alias of `other_group1`). */
export type InstrumentGroup = Exclude<EngineGroup, 'other'>;
export const INSTRUMENT_GROUPS = ENGINE_GROUPS.filter((group): group is InstrumentGroup => group !== 'other');

/** A session's group as the settings offer it: the engine's `other` is shown as the first "other" group it stands for. */
export const offeredGroup = (group: EngineGroup): InstrumentGroup => (group === 'other' ? 'other_group1' : group);

export const SAMPLE_RATES = MIX_SAMPLE_RATES;
export type SampleRate = MixSampleRate;

/**
 * One track's settings (spec §3, "Track settings entry" without the file name): the contract's, with the groups the
 * settings offer (the engine's `other` shown as `other_group1`).
 */
export type TrackSettings = Omit<MixTrackSettings, 'instrumentGroup'> & { instrumentGroup: InstrumentGroup };

/** Spec §9: at least 2 files, at most 5 (the engine's limits); default name, style and sample rate (§5). */
export const MIN_FILES = MIX_MIN_TRACKS;
export const MAX_FILES = MIX_MAX_TRACKS;
export const DEFAULT_MIX_NAME = 'My Mix';
export const DEFAULT_STYLE: MusicalStyle = 'POP';
export const DEFAULT_SAMPLE_RATE: SampleRate = 44100;
/** Settings changes are sent this long after the last one (spec §5). */
export const SETTINGS_DELAY_MS = 300;

/**
 * The spec's guess (§3): keywords tried in this order: kick, snare, cymbal/hi-hat, drum, bass, vox/vocal/voice, perc,
 * string, synth, fx/effect, key/piano, brass/trumpet/sax, electric guitar, acoustic guitar, backing track; otherwise
 * other. Case, separators and the extension do not matter (the server guesses the same way).
 */
export function guessInstrumentGroup(fileName: string): InstrumentGroup {
  const dot = fileName.lastIndexOf('.');
  const base = (dot > 0 ? fileName.slice(0, dot) : fileName).toLowerCase();
  const spaced = ` ${base.replace(/[^a-z0-9]+/g, ' ').trim()} `;
  const compact = base.replace(/[^a-z0-9]+/g, '');
  const has = (...words: string[]) => words.some((word) => compact.includes(word.replace(/ /g, '')));
  const word = (...words: string[]) => words.some((candidate) => spaced.includes(` ${candidate} `));
  if (has('kick')) return 'kick';
  if (has('snare')) return 'snare';
  if (has('cymbal', 'hi hat', 'hihat')) return 'cymbals';
  if (has('drum')) return 'drums';
  if (has('bass')) return 'bass';
  if (has('vox', 'vocal', 'voice')) return 'vocal';
  if (has('perc')) return 'percs';
  if (has('string')) return 'strings';
  if (has('synth')) return 'synth';
  if (word('fx', 'sfx') || has('effect')) return 'fx';
  if (has('key', 'piano')) return 'keys';
  if (has('brass', 'trumpet', 'sax')) return 'brass';
  if (has('electric guitar', 'electric', 'eguitar', 'e guitar')) return 'e_guitar';
  if (has('acoustic guitar', 'acoustic')) return 'acoustic_guitar';
  if (has('backing track', 'backingtrack')) return 'backing_track';
  return 'other_group1';
}

/** A new file's settings: the group guessed from its name, the rest at the spec's defaults (§5). */
export function defaultSettings(fileName: string): TrackSettings {
  return {
    instrumentGroup: guessInstrumentGroup(fileName),
    presenceSetting: 'NORMAL',
    panPreference: 'NO_PREFERENCE',
    reverbPreference: 'NONE',
  };
}

/** Drops undefined values before an update is sent (spec §5). */
export function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}

const WAV_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'];

/** Mixing takes WAV only (spec §5): by type, or by extension when the browser gives no type. */
export function isWav(file: { name: string; type: string }): boolean {
  if (file.type) return WAV_TYPES.includes(file.type.toLowerCase());
  return /\.wave?$/i.test(file.name);
}

export type MixProblem = 'mixNameRequired' | 'minimumFiles' | 'maximumFiles' | 'fileFormat';

/** Files added to the list: WAV ones are kept up to the maximum; what was refused says why. */
export function addFiles<F extends { name: string; type: string }>(
  current: readonly F[],
  added: readonly F[],
): { files: F[]; problem: MixProblem | null } {
  const wavs = added.filter(isWav);
  // A name already in the list is the same file again (the server matches settings by file name): it is skipped
  // without a word, since it is no format problem (a valid WAV added again once read "WAV files only").
  const fresh = wavs.filter(
    (file, index) =>
      !current.some((other) => other.name === file.name) &&
      wavs.findIndex((other) => other.name === file.name) === index,
  );
  const room = MAX_FILES - current.length;
  const files = [...current, ...fresh.slice(0, Math.max(0, room))];
  const problem = wavs.length < added.length ? 'fileFormat' : fresh.length > room ? 'maximumFiles' : null;
  return { files, problem };
}

/** What stops the mix from starting, first problem first (the name, then the file count). */
export function mixProblems(name: string, files: ReadonlyArray<{ name: string; type: string }>): MixProblem[] {
  const problems: MixProblem[] = [];
  if (!name.trim()) problems.push('mixNameRequired');
  if (files.some((file) => !isWav(file))) problems.push('fileFormat');
  if (files.length < MIN_FILES) problems.push('minimumFiles');
  if (files.length > MAX_FILES) problems.push('maximumFiles');
  return problems;
}

/** The final mix row: a track whose name or type contains "mix" (spec §2). */
export const isFinalMix = (row: { name: string; type: string }): boolean =>
  /mix/i.test(row.type) || /mix/i.test(row.name);

/** The final mix among the rows: one whose type says mix, else one whose name does (a single row at most). */
export function finalMixIndex(rows: ReadonlyArray<{ name: string; type: string }>): number {
  const byType = rows.findIndex((row) => /mix/i.test(row.type));
  return byType >= 0 ? byType : rows.findIndex(isFinalMix);
}

/** The board's rows: the final mix first, the tracks after it in their order. */
export function boardOrder<R extends { name: string; type: string }>(rows: readonly R[]): R[] {
  const index = finalMixIndex(rows);
  if (index <= 0) return [...rows];
  return [rows[index]!, ...rows.slice(0, index), ...rows.slice(index + 1)];
}

/** The mixing steps shown while the mix is made (spec §9: six). */
export const MIX_STEPS = ['upload', 'analyse', 'balance', 'process', 'master', 'finish'] as const;

/** Each step's state for a progress percentage. */
export function stepStates(percent: number): Array<'completed' | 'processing' | 'waiting'> {
  const per = 100 / MIX_STEPS.length;
  return MIX_STEPS.map((_, index) => {
    if (percent >= 100 || percent >= (index + 1) * per) return 'completed';
    if (percent >= index * per) return 'processing';
    return 'waiting';
  });
}

/** The mix's progress (spec §4): the engine's when known, else time-based over 8 minutes, capped at 99 (80 before). */
export function mixPercent(options: {
  status: string;
  startedAt: number;
  now: number;
  engine: number | null;
  previous: number;
}): number {
  const { status, startedAt, now, engine, previous } = options;
  if (status === 'COMPLETED') return 100;
  if (status !== 'PROCESSING') return previous;
  const byTime = (Math.max(0, now - startedAt) / (8 * 60_000)) * 100;
  const byEngine = engine !== null && Number.isFinite(engine) ? engine * 100 : 0;
  const cap = engine !== null ? 99 : 80;
  return Math.max(previous, Math.floor(Math.min(cap, Math.max(byTime, byEngine))));
}
