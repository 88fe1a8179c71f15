/**
 * A mix request as it arrives: its shape checked (the engine's own validation, shared with the worker boundary) and
 * the output file names its track names give. Nothing here touches the audio.
 */
import { basename, extname } from 'node:path';
import { InvalidOptionsError } from '../errors';
import { assertOneOf, resolveLoudnessTarget } from '../stage/input';
import {
  INSTRUMENT_GROUPS,
  MIX_MAX_TRACKS,
  MIX_MIN_TRACKS,
  MIX_SAMPLE_RATES,
  MUSICAL_STYLES,
  PAN_PREFERENCES,
  PRESENCE_SETTINGS,
  REVERB_PREFERENCES,
} from '../types';

/** Checks a mix request's shape (the engine's own validation, shared with the worker boundary). */
export function validateMixRequest(r: Record<string, unknown>): void {
  if (!Array.isArray(r.inputs)) throw new InvalidOptionsError('inputs must be an array of tracks');
  if (r.inputs.length < MIX_MIN_TRACKS || r.inputs.length > MIX_MAX_TRACKS) {
    throw new InvalidOptionsError(`a mix takes ${MIX_MIN_TRACKS} to ${MIX_MAX_TRACKS} tracks`, {
      tracks: r.inputs.length,
    });
  }
  for (const t of r.inputs as unknown[]) {
    const track = (t ?? {}) as Record<string, unknown>;
    if (typeof track.path !== 'string' || track.path === '') throw new InvalidOptionsError('each track needs a path');
    if (typeof track.name !== 'string' || track.name === '') throw new InvalidOptionsError('each track needs a name');
    if (track.settings !== undefined) {
      if (typeof track.settings !== 'object' || track.settings === null) {
        throw new InvalidOptionsError('track settings must be an object');
      }
      const s = track.settings as Record<string, unknown>;
      if (s.instrumentGroup !== undefined) assertOneOf(s.instrumentGroup, INSTRUMENT_GROUPS, 'instrumentGroup');
      if (s.presenceSetting !== undefined) assertOneOf(s.presenceSetting, PRESENCE_SETTINGS, 'presenceSetting');
      if (s.panPreference !== undefined) assertOneOf(s.panPreference, PAN_PREFERENCES, 'panPreference');
      if (s.reverbPreference !== undefined) assertOneOf(s.reverbPreference, REVERB_PREFERENCES, 'reverbPreference');
    }
  }
  if (typeof r.outDir !== 'string' || r.outDir === '') throw new InvalidOptionsError('outDir must be a directory path');
  const o = (r.options ?? {}) as Record<string, unknown>;
  assertOneOf(o.style, MUSICAL_STYLES, 'style');
  if (!(MIX_SAMPLE_RATES as readonly unknown[]).includes(o.sampleRate)) {
    throw new InvalidOptionsError(`sampleRate must be one of ${MIX_SAMPLE_RATES.join(', ')}`, {
      sampleRate: o.sampleRate,
    });
  }
  resolveLoudnessTarget(o.target as never);
}

/** File names for `tracks/`: the track name's base, made safe, de-duplicated. */
export function trackFileNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    const base =
      basename(name, extname(name))
        .replace(/[^A-Za-z0-9._-]+/g, '_')
        .replace(/^[._]+|_+$/g, '')
        .slice(0, 80) || 'track';
    let file = `${base}.wav`;
    for (let k = 2; used.has(file.toLowerCase()); k++) file = `${base}-${k}.wav`;
    used.add(file.toLowerCase());
    return file;
  });
}
