/**
 * Mix settings: the spec's file-name guess of the instrument group, the spec's defaults, and the per-group processing
 * profiles the mixer starts from (level relative to the other tracks, high-pass, static corrective EQ, compression,
 * where the group's own range is for masking decisions, whether it belongs in the centre).
 *
 * The profiles are engineering conventions written down as numbers (the usual starting points of mixing practice:
 * vocals and bass centred and forward, a high-pass on everything that has no business in the sub-bass, faster and
 * harder compression on drums than on pads), not values fitted to a corpus. Every choice is reported per track.
 */
import { basename, extname } from 'node:path';
import type { InstrumentGroup, PanPreference, PresenceSetting, ReverbPreference, TrackSettings } from '../types';
import type { EqPurpose } from './report';

/**
 * The spec's guess: keywords tried in this order: kick, snare, cymbal/hi-hat, drum, bass, vox/vocal/voice, perc,
 * string, synth, fx/effect, key/piano, brass/trumpet/sax, electric guitar, acoustic guitar, backing track; otherwise
 * other (`other_group1`). Case and separators (space, _, -, .) do not matter; the extension is ignored.
 */
export function guessInstrumentGroup(filename: string): InstrumentGroup {
  const base = basename(filename, extname(filename)).toLowerCase();
  const spaced = ` ${base.replace(/[^a-z0-9]+/g, ' ').trim()} `;
  const compact = base.replace(/[^a-z0-9]+/g, '');
  const has = (...words: string[]) => words.some((w) => compact.includes(w.replace(/ /g, '')));
  const word = (...words: string[]) => words.some((w) => spaced.includes(` ${w} `));
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

export interface ResolvedSettings {
  instrumentGroup: InstrumentGroup;
  groupSource: 'given' | 'guessed';
  presenceSetting: PresenceSetting;
  panPreference: PanPreference;
  reverbPreference: ReverbPreference;
}

/** The spec's defaults: group guessed from the file name, presence NORMAL, pan NO_PREFERENCE, reverb NONE. */
export function resolveSettings(name: string, settings: TrackSettings | undefined): ResolvedSettings {
  const s = settings ?? {};
  const group = s.instrumentGroup === 'other' ? 'other_group1' : s.instrumentGroup;
  return {
    instrumentGroup: group ?? guessInstrumentGroup(name),
    groupSource: group ? 'given' : 'guessed',
    presenceSetting: s.presenceSetting ?? 'NORMAL',
    panPreference: s.panPreference ?? 'NO_PREFERENCE',
    reverbPreference: s.reverbPreference ?? 'NONE',
  };
}

export interface StaticEq {
  type: 'peaking' | 'lowShelf' | 'highShelf';
  freqHz: number;
  gainDb: number;
  q: number;
  /** What the move is for (the report words it; the client translates it). */
  purpose: EqPurpose;
}

export interface GroupProfile {
  /** Loudness relative to a NORMAL lead-instrument track, LU. */
  levelLu: number;
  highpassHz: number;
  eq: StaticEq[];
  /** Compressor: ratio, attack and release; `depthDb` is the gain reduction aimed at on the loud passages. */
  comp: { ratio: number; attackMs: number; releaseMs: number; depthDb: number };
  /** Kept in the centre when the user states no pan preference (low end, lead parts, full-range material). */
  centre: boolean;
  /** Reverb send scaling, dB (low-frequency and transient material gets less). */
  reverbTrimDb: number;
  /** Who wins when two tracks compete in a band (higher keeps its band, the other is cut). */
  priority: number;
  /** The band the group needs to be heard in, Hz. */
  focusHz: [number, number];
}

const comp = (ratio: number, attackMs: number, releaseMs: number, depthDb: number) => ({
  ratio,
  attackMs,
  releaseMs,
  depthDb,
});

export const GROUP_PROFILES: Record<Exclude<InstrumentGroup, 'other'>, GroupProfile> = {
  vocal: {
    levelLu: 0,
    highpassHz: 90,
    eq: [
      { type: 'peaking', freqHz: 3000, gainDb: 1.5, q: 1, purpose: 'presence' },
      { type: 'highShelf', freqHz: 10000, gainDb: 1, q: 0.7, purpose: 'air' },
    ],
    comp: comp(3, 8, 120, 5),
    centre: true,
    reverbTrimDb: 0,
    priority: 10,
    focusHz: [1000, 5000],
  },
  backing_vox: {
    levelLu: -5,
    highpassHz: 150,
    eq: [{ type: 'peaking', freqHz: 3000, gainDb: -1.5, q: 1, purpose: 'behind-lead' }],
    comp: comp(4, 10, 150, 6),
    centre: false,
    reverbTrimDb: 2,
    priority: 5,
    focusHz: [500, 3000],
  },
  bass: {
    levelLu: -2,
    highpassHz: 30,
    eq: [{ type: 'peaking', freqHz: 800, gainDb: 1, q: 1, purpose: 'definition' }],
    comp: comp(4, 15, 150, 5),
    centre: true,
    reverbTrimDb: -12,
    priority: 8,
    focusHz: [50, 250],
  },
  kick: {
    levelLu: -3,
    highpassHz: 30,
    eq: [
      { type: 'peaking', freqHz: 350, gainDb: -2, q: 1.2, purpose: 'boxiness' },
      { type: 'peaking', freqHz: 3500, gainDb: 1.5, q: 1.2, purpose: 'click' },
    ],
    comp: comp(4, 10, 80, 4),
    centre: true,
    reverbTrimDb: -12,
    priority: 9,
    focusHz: [45, 110],
  },
  snare: {
    levelLu: -4,
    highpassHz: 80,
    eq: [{ type: 'peaking', freqHz: 200, gainDb: 1, q: 1.2, purpose: 'body' }],
    comp: comp(4, 5, 100, 4),
    centre: true,
    reverbTrimDb: 0,
    priority: 7,
    focusHz: [150, 300],
  },
  drums: {
    levelLu: -1,
    highpassHz: 30,
    eq: [{ type: 'peaking', freqHz: 400, gainDb: -1.5, q: 1, purpose: 'boxiness' }],
    comp: comp(3, 10, 100, 4),
    centre: true,
    reverbTrimDb: -6,
    priority: 8,
    focusHz: [50, 250],
  },
  cymbals: {
    levelLu: -10,
    highpassHz: 300,
    eq: [],
    comp: comp(2, 5, 100, 2),
    centre: false,
    reverbTrimDb: -3,
    priority: 3,
    focusHz: [6000, 12000],
  },
  percs: {
    levelLu: -8,
    highpassHz: 120,
    eq: [],
    comp: comp(3, 5, 80, 3),
    centre: false,
    reverbTrimDb: 0,
    priority: 4,
    focusHz: [2000, 6000],
  },
  strings: {
    levelLu: -5,
    highpassHz: 80,
    eq: [{ type: 'peaking', freqHz: 2500, gainDb: -1, q: 1, purpose: 'vocal-room' }],
    comp: comp(2, 30, 250, 2),
    centre: false,
    reverbTrimDb: 2,
    priority: 4,
    focusHz: [200, 1500],
  },
  synth: {
    levelLu: -4,
    highpassHz: 40,
    eq: [],
    comp: comp(2.5, 20, 150, 3),
    centre: false,
    reverbTrimDb: 0,
    priority: 5,
    focusHz: [300, 3000],
  },
  fx: {
    levelLu: -10,
    highpassHz: 60,
    eq: [],
    comp: comp(2, 20, 200, 2),
    centre: false,
    reverbTrimDb: 3,
    priority: 1,
    focusHz: [1000, 8000],
  },
  keys: {
    levelLu: -4,
    highpassHz: 60,
    eq: [{ type: 'peaking', freqHz: 300, gainDb: -1.5, q: 1, purpose: 'mud' }],
    comp: comp(2.5, 20, 200, 3),
    centre: false,
    reverbTrimDb: 0,
    priority: 5,
    focusHz: [250, 2000],
  },
  brass: {
    levelLu: -5,
    highpassHz: 100,
    eq: [],
    comp: comp(3, 15, 150, 3),
    centre: false,
    reverbTrimDb: 0,
    priority: 5,
    focusHz: [500, 3000],
  },
  e_guitar: {
    levelLu: -3,
    highpassHz: 80,
    eq: [{ type: 'peaking', freqHz: 3500, gainDb: -1, q: 1.2, purpose: 'harshness' }],
    comp: comp(2.5, 15, 150, 3),
    centre: false,
    reverbTrimDb: 0,
    priority: 6,
    focusHz: [200, 2500],
  },
  acoustic_guitar: {
    levelLu: -3,
    highpassHz: 90,
    eq: [{ type: 'peaking', freqHz: 250, gainDb: -1.5, q: 1, purpose: 'boominess' }],
    comp: comp(3, 10, 150, 4),
    centre: false,
    reverbTrimDb: 0,
    priority: 6,
    focusHz: [200, 5000],
  },
  backing_track: {
    levelLu: -1,
    highpassHz: 25,
    eq: [],
    comp: comp(1.5, 30, 300, 1.5),
    centre: true,
    reverbTrimDb: -12,
    priority: 6,
    focusHz: [100, 4000],
  },
  other_group1: otherProfile(),
  other_group2: otherProfile(),
  other_group3: otherProfile(),
  other_group4: otherProfile(),
  other_group5: otherProfile(),
};

function otherProfile(): GroupProfile {
  return {
    levelLu: -4,
    highpassHz: 40,
    eq: [],
    comp: comp(2, 15, 150, 2),
    centre: false,
    reverbTrimDb: 0,
    priority: 4,
    focusHz: [300, 3000],
  };
}

export function profileOf(group: InstrumentGroup): GroupProfile {
  return GROUP_PROFILES[group === 'other' ? 'other_group1' : group];
}

/** Loudness offsets by presence, LU. */
export const PRESENCE_LU: Record<PresenceSetting, number> = { LEAD: 4.5, NORMAL: 0, BACKGROUND: -5 };
/** Minimum spacing enforced between presence classes, LU (the spec's "LEAD above NORMAL above BACKGROUND"). */
export const LEAD_MARGIN_LU = 4;
export const BACKGROUND_MARGIN_LU = 3;

/** Reverb send levels, dB relative to the track. */
export const REVERB_SEND_DB: Record<ReverbPreference, number> = {
  NONE: -Infinity,
  LOW: -18,
  MEDIUM: -12,
  HIGH: -7,
};

/** Pan positions (-1 left .. +1 right) for explicit preferences. */
export const PAN_POSITION: Record<Exclude<PanPreference, 'NO_PREFERENCE'>, number> = {
  LEFT: -0.6,
  CENTRE: 0,
  RIGHT: 0.6,
};
