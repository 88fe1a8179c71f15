/**
 * The mix settings file of the command line (`engine mix --settings settings.json`): read, checked and matched to the
 * input files. Its mistakes are the user's, so they are UsageErrors naming the entry and the field.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import {
  INSTRUMENT_GROUPS,
  MIX_SAMPLE_RATES,
  MUSICAL_STYLES,
  PAN_PREFERENCES,
  PRESENCE_SETTINGS,
  REVERB_PREFERENCES,
} from '../types';
import type { MixSampleRate, MusicalStyle, TrackSettings } from '../types';
import { UsageError } from '../usage-error';

const ENTRY_KEYS = ['fileName', 'instrumentGroup', 'presenceSetting', 'panPreference', 'reverbPreference'] as const;
const BATCH_KEYS = ['musicalStyle', 'sampleRate', 'tracks'] as const;
const SETTING_VALUES: Record<Exclude<(typeof ENTRY_KEYS)[number], 'fileName'>, readonly string[]> = {
  instrumentGroup: INSTRUMENT_GROUPS,
  presenceSetting: PRESENCE_SETTINGS,
  panPreference: PAN_PREFERENCES,
  reverbPreference: REVERB_PREFERENCES,
};

export interface MixSettingsEntry {
  /** Where the entry is in the file, for messages: `tracks[0] ("Lead Vox.wav")`. */
  where: string;
  fileName: string;
  /** `fileName` resolved against the settings file's folder. */
  path: string;
  settings: TrackSettings;
}

export interface MixSettingsFile {
  file: string;
  musicalStyle?: MusicalStyle;
  sampleRate?: MixSampleRate;
  entries: MixSettingsEntry[];
}

const list = (values: readonly unknown[]) => values.join(', ');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a mix settings file, in one of three shapes:
 * - the spec's batch, `{ "musicalStyle"?, "sampleRate"?, "tracks": [entry...] }` (an object with any of these keys);
 * - a bare array of entries, `[entry...]`;
 * - an object keyed by file name whose values are entries without `fileName`.
 * An entry is `{ fileName, instrumentGroup?, presenceSetting?, panPreference?, reverbPreference? }` with the spec's
 * values (absent or null: the spec's default). Anything else (an unknown key, an unknown value, an entry without a
 * file name, the same file twice) is a UsageError naming the entry and the field.
 */
export function readMixSettings(file: string): MixSettingsFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new UsageError(`cannot read --settings ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const fail = (message: string): never => {
    throw new UsageError(`--settings ${file}: ${message}`);
  };
  const folder = dirname(file);
  const result: MixSettingsFile = { file, entries: [] };
  const entry = (value: unknown, at: string, keyedName?: string) => {
    if (!isObject(value)) return fail(`${at} must be an object with ${list(ENTRY_KEYS)}`);
    const fileName = keyedName ?? value.fileName;
    if (typeof fileName !== 'string' || fileName.trim() === '') {
      return fail(`${at} has no fileName (the input file the entry's settings apply to)`);
    }
    const where = keyedName === undefined ? `${at} ("${fileName}")` : at;
    const allowed: readonly string[] = keyedName === undefined ? ENTRY_KEYS : ENTRY_KEYS.slice(1);
    const settings: Record<string, string> = {};
    for (const [key, v] of Object.entries(value)) {
      if (!allowed.includes(key)) fail(`${where}: unknown key "${key}" (expected ${list(allowed)})`);
      if (key === 'fileName' || v === null) continue;
      const values = SETTING_VALUES[key as keyof typeof SETTING_VALUES];
      if (typeof v !== 'string' || !values.includes(v)) {
        fail(`${where}: ${key} ${JSON.stringify(v)} is not one of ${list(values)}`);
      }
      settings[key] = v as string;
    }
    const path = resolve(folder, fileName);
    const twice = result.entries.find((e) => e.path === path);
    if (twice) fail(`${where} names the same file as ${twice.where}`);
    result.entries.push({ where, fileName, path, settings: settings as TrackSettings });
  };
  if (Array.isArray(json)) {
    json.forEach((e, i) => entry(e, `[${i}]`));
  } else if (isObject(json) && BATCH_KEYS.some((k) => k in json)) {
    for (const key of Object.keys(json)) {
      if (!(BATCH_KEYS as readonly string[]).includes(key)) {
        fail(`unknown key "${key}" (the batch takes ${list(BATCH_KEYS)})`);
      }
    }
    const { musicalStyle, sampleRate, tracks } = json;
    if (musicalStyle !== undefined && musicalStyle !== null) {
      if (typeof musicalStyle !== 'string' || !(MUSICAL_STYLES as readonly string[]).includes(musicalStyle)) {
        fail(`musicalStyle ${JSON.stringify(musicalStyle)} is not one of ${list(MUSICAL_STYLES)}`);
      }
      result.musicalStyle = musicalStyle as MusicalStyle;
    }
    if (sampleRate !== undefined && sampleRate !== null) {
      if (!(MIX_SAMPLE_RATES as readonly unknown[]).includes(sampleRate)) {
        fail(`sampleRate ${JSON.stringify(sampleRate)} is not one of ${list(MIX_SAMPLE_RATES)}`);
      }
      result.sampleRate = sampleRate as MixSampleRate;
    }
    if (tracks !== undefined && !Array.isArray(tracks)) fail('tracks must be an array of entries');
    ((tracks ?? []) as unknown[]).forEach((e, i) => entry(e, `tracks[${i}]`));
  } else if (isObject(json)) {
    for (const [name, value] of Object.entries(json)) entry(value, JSON.stringify(name), name);
  } else {
    fail(`must hold { ${list(BATCH_KEYS)} }, an array of entries or an object keyed by file name`);
  }
  return result;
}

/**
 * Matches the settings file's entries to the input files: an entry names an input by its path (against the settings
 * file's folder), by its base name, or by its base name without the extension. An entry that names no input, or more
 * than one, and two entries naming one input are usage errors. Returns the settings by input path.
 */
export function matchEntries(file: MixSettingsFile, inputs: readonly string[]): Map<string, TrackSettings> {
  const byInput = new Map<string, TrackSettings>();
  const by = new Map<string, string>();
  if (inputs.length === 0) {
    for (const e of file.entries) byInput.set(e.path, e.settings);
    return byInput;
  }
  for (const e of file.entries) {
    const name = basename(e.fileName);
    let found = inputs.filter((path) => path === e.path);
    if (found.length === 0) {
      found = inputs.filter((path) => basename(path) === name || basename(path).replace(/\.[^.]*$/, '') === name);
    }
    const where = `--settings ${file.file}: ${e.where}`;
    if (found.length === 0) {
      throw new UsageError(
        `${where}: fileName names none of the input files (${list(inputs.map((f) => basename(f)))})`,
      );
    }
    if (found.length > 1) throw new UsageError(`${where}: fileName names more than one input file: ${list(found)}`);
    const input = found[0]!;
    if (by.has(input))
      throw new UsageError(`${where}: ${basename(input)} already has its settings in ${by.get(input)}`);
    by.set(input, e.where);
    byInput.set(input, e.settings);
  }
  return byInput;
}
