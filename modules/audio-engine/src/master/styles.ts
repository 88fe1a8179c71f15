/**
 * Per-style mastering targets.
 *
 * Tonal-balance curves are long-term 1/3-octave band levels relative to the 1 kHz band, given at octave points and
 * interpolated in log frequency. They are hand-set from the general shape that surveys of commercial releases report
 * (e.g. Pestana et al., "Spectral characteristics of popular commercial recordings 1950-2010", AES 135, 2013: a
 * plateau in the low end, then a slope of roughly 3-5 dB per octave above 1 kHz) with genre-typical emphasis (more
 * sub-bass in hip-hop, electronic and dub; more low-mid body and a darker top in acoustic and orchestral). They are
 * design choices, not a model fitted to a corpus; the chain only moves part of the way toward them and within
 * bounds (see tonal.ts), so they steer rather than impose.
 *
 * Dynamics: `plrDb` is the peak-to-loudness ratio the style typically keeps; `sideToMidDb` the typical stereo width.
 */
import type { MusicalStyle } from '../types';

export interface StyleProfile {
  /** Relative band level (dB) at 31.5, 63, 125, 250, 500, 1k, 2k, 4k, 8k, 16k Hz. */
  octaveCurveDb: readonly number[];
  plrDb: number;
  sideToMidDb: number;
  /** Limiter release time constant, seconds (slower for dense, sustained material). */
  releaseSec: number;
}

export const OCTAVE_POINTS_HZ = [31.5, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000] as const;

export const STYLE_PROFILES: Record<MusicalStyle, StyleProfile> = {
  POP: { octaveCurveDb: [4, 7, 6, 4, 2, 0, -2.5, -5, -8, -15], plrDb: 10, sideToMidDb: -9, releaseSec: 0.08 },
  ROCK_INDIE: {
    octaveCurveDb: [1, 5, 5.5, 4, 2.5, 0, -2, -4.5, -8, -16],
    plrDb: 10,
    sideToMidDb: -10,
    releaseSec: 0.08,
  },
  ACOUSTIC: {
    octaveCurveDb: [-2, 2, 4, 4, 2.5, 0, -2.5, -5, -8.5, -16],
    plrDb: 13,
    sideToMidDb: -10,
    releaseSec: 0.12,
  },
  HIPHOP_GRIME: { octaveCurveDb: [8, 10, 7, 4, 2, 0, -3, -6, -9, -16], plrDb: 10, sideToMidDb: -11, releaseSec: 0.1 },
  ELECTRONIC: { octaveCurveDb: [7, 9, 7, 4, 1.5, 0, -2, -4.5, -7, -13], plrDb: 9, sideToMidDb: -8, releaseSec: 0.1 },
  REGGAE_DUB: { octaveCurveDb: [6, 10, 8, 4, 1.5, 0, -3, -6, -10, -17], plrDb: 11, sideToMidDb: -11, releaseSec: 0.12 },
  ORCHESTRAL: {
    octaveCurveDb: [-2, 2, 4, 4, 2.5, 0, -3, -6.5, -10.5, -18],
    plrDb: 15,
    sideToMidDb: -8,
    releaseSec: 0.15,
  },
  METAL: { octaveCurveDb: [0, 4, 5, 3.5, 2, 0, -1, -3.5, -7, -15], plrDb: 9, sideToMidDb: -9, releaseSec: 0.06 },
  OTHER: { octaveCurveDb: [3, 6, 5.5, 4, 2, 0, -2.5, -5, -8.5, -15.5], plrDb: 11, sideToMidDb: -10, releaseSec: 0.1 },
};

/** The style curve at frequency f (linear interpolation over log2 f, flat beyond the ends). */
export function curveAt(octaveCurveDb: readonly number[], f: number): number {
  const pts = OCTAVE_POINTS_HZ;
  if (f <= pts[0]) return octaveCurveDb[0]!;
  if (f >= pts[pts.length - 1]!) return octaveCurveDb[pts.length - 1]!;
  const x = Math.log2(f / pts[0]);
  const i = Math.min(pts.length - 2, Math.floor(x));
  const frac = x - i;
  return octaveCurveDb[i]! * (1 - frac) + octaveCurveDb[i + 1]! * frac;
}
