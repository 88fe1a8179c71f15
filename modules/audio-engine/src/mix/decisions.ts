/**
 * The mixing decisions: what the mixer will do to each track, planned from the tracks' settings and analyses alone
 * (loudness targets and the presence ordering, corrective EQ with masking cuts, pan positions, reverb sends, the bus
 * glue). Nothing here reads or writes a sample, so every rule can be checked on hand-built analyses; mix/mix renders
 * the decisions.
 *
 * The functions read only what `PlannedTrack` names. The pipeline passes its richer track records (audio, report
 * fields), and the planners that return tracks give back the same kind of record with their decisions filled in.
 */
import type { AnalysisReport } from '../analysis/analyze';
import type { MusicalStyle } from '../types';
import { type EqMove, finalEq } from './eq';
import type { EqDecision, EqPurpose, TrackReport } from './report';
import {
  BACKGROUND_MARGIN_LU,
  LEAD_MARGIN_LU,
  PAN_POSITION,
  PRESENCE_LU,
  REVERB_SEND_DB,
  type ResolvedSettings,
  profileOf,
} from './settings';

/** Loudness of a NORMAL track with a 0 LU group offset before the bus, LUFS (leaves the sum headroom). */
export const REFERENCE_LUFS = -24;
/** Bus glue compression by style: ratio and gain reduction aimed at on the loud passages. */
export const GLUE: Record<MusicalStyle, { ratio: number; depthDb: number }> = {
  POP: { ratio: 2, depthDb: 2 },
  ROCK_INDIE: { ratio: 2, depthDb: 2.5 },
  ACOUSTIC: { ratio: 1.5, depthDb: 1 },
  HIPHOP_GRIME: { ratio: 2.5, depthDb: 3 },
  ELECTRONIC: { ratio: 2.5, depthDb: 3 },
  REGGAE_DUB: { ratio: 2, depthDb: 2 },
  ORCHESTRAL: { ratio: 1.5, depthDb: 0.5 },
  METAL: { ratio: 3, depthDb: 3 },
  OTHER: { ratio: 2, depthDb: 2 },
};

/** What the decisions read of a track's analysis: its integrated loudness and its third-octave spectrum. */
export type PlannedAnalysis = Pick<AnalysisReport, 'integratedLufs' | 'spectrum'>;

/** A track as the decisions see it: only the fields they read (and, for the planners, fill in). */
export interface PlannedTrack {
  readonly index: number;
  readonly name: string;
  readonly settings: Pick<
    ResolvedSettings,
    'instrumentGroup' | 'presenceSetting' | 'panPreference' | 'reverbPreference'
  >;
  /** Null before the analysis (a track without one is left out of the masking cuts). */
  readonly analysis: PlannedAnalysis | null;
  readonly targetLufs: number;
  readonly targetReason: string;
  readonly pan: TrackReport['decisions']['pan'];
  /** A silent track: the presence ordering and the masking cuts leave it out, and the pipeline does not render it. */
  readonly muted: boolean;
}

const r2 = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : v);

/** Band level (dB) of a spectrum at the third-octave band nearest f. */
export function bandAt(a: PlannedAnalysis, f: number): number {
  const bands = a.spectrum.bandsHz;
  let best = 0;
  for (let b = 1; b < bands.length; b++)
    if (Math.abs(Math.log(bands[b]! / f)) < Math.abs(Math.log(bands[best]! / f))) best = b;
  return a.spectrum.levelsDb[best] ?? -Infinity;
}

/** Corrective moves measured on the track: low-mid (mud) and upper-mid (harshness) build-ups. */
export function measuredEq(a: PlannedAnalysis): EqMove[] {
  const out: EqMove[] = [];
  const check = (centre: number, below: number, above: number, purpose: EqPurpose, maxCut: number) => {
    const l = bandAt(a, centre);
    const ref = (bandAt(a, below) + bandAt(a, above)) / 2;
    if (!Number.isFinite(l) || !Number.isFinite(ref)) return;
    const excess = l - ref;
    if (excess > 2) {
      const gainDb = -r2(Math.min(maxCut, 0.6 * excess));
      out.push({ type: 'peaking', freqHz: centre, gainDb, q: 1.4, purpose, basis: 'measured' });
    }
  };
  check(315, 125, 800, 'mud', 4);
  check(3150, 1250, 8000, 'harshness', 3);
  return out;
}

/** Cuts in lower-priority tracks where they compete in a higher-priority track's focus band (at most 2 each). */
export function maskingCuts(tracks: readonly PlannedTrack[]): Map<number, EqMove[]> {
  const cuts = new Map<number, EqMove[]>();
  const priority = (t: PlannedTrack) => {
    const p = profileOf(t.settings.instrumentGroup).priority;
    return p + (t.settings.presenceSetting === 'LEAD' ? 5 : t.settings.presenceSetting === 'BACKGROUND' ? -3 : 0);
  };
  const live = tracks.filter((t) => !t.muted && t.analysis);
  // Band levels as they will be after gain staging.
  const staged = (t: PlannedTrack, b: number) =>
    t.analysis!.spectrum.levelsDb[b]! + (t.targetLufs - t.analysis!.integratedLufs);
  const candidates = new Map<number, Array<EqMove & { score: number }>>();
  for (const a of live) {
    const [lo, hi] = profileOf(a.settings.instrumentGroup).focusHz;
    const bands = a.analysis!.spectrum.bandsHz;
    let aPeak = -Infinity;
    for (let b = 0; b < bands.length; b++)
      if (bands[b]! >= lo && bands[b]! <= hi) aPeak = Math.max(aPeak, staged(a, b));
    for (const b of live) {
      if (a === b || priority(b) >= priority(a)) continue;
      let best = -Infinity;
      let at = -1;
      for (let k = 0; k < bands.length; k++) {
        const f = bands[k]!;
        if (f < lo || f > hi) continue;
        const la = staged(a, k);
        const lb = staged(b, k);
        if (!Number.isFinite(la) || !Number.isFinite(lb) || la < aPeak - 12) continue;
        const competition = lb - la;
        if (competition > -6 && competition > best) {
          best = competition;
          at = k;
        }
      }
      if (at < 0) continue;
      const gainDb = -r2(Math.min(4, Math.max(1.5, 1.5 + 0.3 * (best + 6))));
      const list = candidates.get(b.index) ?? [];
      list.push({
        type: 'peaking',
        freqHz: bands[at]!,
        gainDb,
        q: 1.4,
        purpose: 'masking',
        basis: 'masking',
        maskedBy: a.name,
        score: best,
      });
      candidates.set(b.index, list);
    }
  }
  for (const [index, list] of candidates) {
    list.sort((x, y) => y.score - x.score);
    const chosen: EqMove[] = [];
    for (const { score: _score, ...c } of list) {
      if (chosen.length >= 2) break;
      if (chosen.some((d) => Math.abs(Math.log2(d.freqHz / c.freqHz)) < 0.5)) continue;
      chosen.push(c);
    }
    cuts.set(index, chosen);
  }
  return cuts;
}

/**
 * Corrective EQ of one track: the group's high-pass (lower for a LEAD part) and static moves, the build-ups measured
 * on the track, the masking cuts made for other tracks, reconciled so that no two moves within a third of an octave
 * fight or double up (mix/eq), then worded.
 */
export function planEq(t: PlannedTrack, masking: readonly EqMove[]): EqDecision[] {
  const p = profileOf(t.settings.instrumentGroup);
  const hp = t.settings.presenceSetting === 'LEAD' ? p.highpassHz * 0.8 : p.highpassHz;
  return finalEq([
    { type: 'highpass', freqHz: Math.round(hp), gainDb: 0, q: Math.SQRT1_2, purpose: 'rumble', basis: 'group' },
    ...p.eq.map((e): EqMove => ({ ...e, basis: 'group' })),
    ...measuredEq(t.analysis!),
    ...masking,
  ]);
}

/** Loudness targets by group and presence, then the presence ordering enforced. */
export function planLevels<T extends PlannedTrack>(tracks: readonly T[]): T[] {
  const planned = tracks.map((t) => {
    const p = profileOf(t.settings.instrumentGroup);
    return {
      ...t,
      targetLufs: REFERENCE_LUFS + p.levelLu + PRESENCE_LU[t.settings.presenceSetting],
      targetReason: `${t.settings.instrumentGroup} ${p.levelLu >= 0 ? '+' : ''}${p.levelLu} LU, ${t.settings.presenceSetting} ${PRESENCE_LU[t.settings.presenceSetting] >= 0 ? '+' : ''}${PRESENCE_LU[t.settings.presenceSetting]} LU`,
    };
  });
  const live = planned.filter((t) => !t.muted);
  const targetsOf = (p: string) => live.filter((t) => t.settings.presenceSetting === p).map((t) => t.targetLufs);
  const leads = targetsOf('LEAD');
  const normals = targetsOf('NORMAL');
  return planned.map((t) => {
    if (t.muted) return t;
    const presence = t.settings.presenceSetting;
    if (normals.length) {
      const maxNormal = Math.max(...normals);
      const minNormal = Math.min(...normals);
      if (presence === 'LEAD' && t.targetLufs < maxNormal + LEAD_MARGIN_LU) {
        return {
          ...t,
          targetLufs: maxNormal + LEAD_MARGIN_LU,
          targetReason: `${t.targetReason}; raised to ${LEAD_MARGIN_LU} LU above the loudest NORMAL track`,
        };
      }
      if (presence === 'BACKGROUND' && t.targetLufs > minNormal - BACKGROUND_MARGIN_LU) {
        return {
          ...t,
          targetLufs: minNormal - BACKGROUND_MARGIN_LU,
          targetReason: `${t.targetReason}; lowered to ${BACKGROUND_MARGIN_LU} LU below the quietest NORMAL track`,
        };
      }
    } else if (leads.length && presence === 'BACKGROUND') {
      const cap = Math.min(...leads) - LEAD_MARGIN_LU - BACKGROUND_MARGIN_LU;
      if (t.targetLufs > cap)
        return { ...t, targetLufs: cap, targetReason: `${t.targetReason}; lowered under the LEAD tracks` };
    }
    return t;
  });
}

/**
 * Pan positions: explicit preferences as given; NO_PREFERENCE tracks centred or spread to balance the sides. A muted
 * track gets its place for the report, but neither weighs in the balance nor takes a spread position from the others.
 */
export function planPan<T extends PlannedTrack>(tracks: readonly T[]): T[] {
  let balance = 0;
  const pans = new Map<number, T['pan']>();
  const spread: T[] = [];
  for (const t of tracks) {
    const pref = t.settings.panPreference;
    if (pref !== 'NO_PREFERENCE') {
      const position = PAN_POSITION[pref];
      pans.set(t.index, { position, width: pref === 'CENTRE' ? 1 : 0.5, reason: `preference ${pref}` });
      if (!t.muted) balance += position; // a silent track weighs nothing in the image
      continue;
    }
    const p = profileOf(t.settings.instrumentGroup);
    if (t.settings.presenceSetting === 'LEAD' || p.centre) {
      pans.set(t.index, {
        position: 0,
        width: 1,
        reason:
          t.settings.presenceSetting === 'LEAD'
            ? 'lead part kept in the centre'
            : `${t.settings.instrumentGroup} kept in the centre`,
      });
    } else spread.push(t);
  }
  // Spread the rest: alternate sides starting with the lighter one, moving outward as the sides fill.
  const positions = [0.35, 0.5, 0.65];
  let k = 0;
  for (const t of spread) {
    const side = balance > 0 ? -1 : 1;
    const position = side * positions[Math.min(positions.length - 1, Math.floor(k / 2))]!;
    pans.set(t.index, { position, width: 0.7, reason: 'no preference: spread to balance the stereo image' });
    if (t.muted) continue; // placed for the report, but it takes no place from the parts that are heard
    balance += position;
    k++;
  }
  return tracks.map((t) => ({ ...t, pan: pans.get(t.index) ?? t.pan }));
}

/** Reverb send of a track, dB relative to the track: the preference's level plus the group's trim; null for NONE. */
export function reverbSendOf(settings: PlannedTrack['settings']): number | null {
  const sendDb = REVERB_SEND_DB[settings.reverbPreference];
  return Number.isFinite(sendDb) ? sendDb + profileOf(settings.instrumentGroup).reverbTrimDb : null;
}
