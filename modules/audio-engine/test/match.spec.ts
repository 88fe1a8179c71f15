import { describe, expect, it } from '@jest/globals';
import { THIRD_OCTAVE_CENTRES, THIRD_OCTAVE_NOMINAL } from '../src/analysis/spectrum';
import { cascadeResponseDb } from '../src/dsp/biquad';
import { MATCH_LIMITS, designMatchEq, matchSections, spectralDistanceDb } from '../src/master/match';

const FS = 44100;
/** A pink-ish input curve: -3 dB per octave above 100 Hz. */
const input = THIRD_OCTAVE_CENTRES.map((f) => -20 - 3 * Math.max(0, Math.log2(f / 100)));
const inDistanceBand = (i: number) => THIRD_OCTAVE_NOMINAL[i]! >= 40 && THIRD_OCTAVE_NOMINAL[i]! <= 16000;

describe('third-octave reference match (design)', () => {
  it('fits a curve with third-octave detail (a 5 dB bump one band wide, a tilt) within 0.6 dB at every band', () => {
    const difference = THIRD_OCTAVE_CENTRES.map((f, i) => (2 * Math.log2(f / 1000)) / 4 + (i === 12 ? 5 : 0));
    const reference = input.map((v, i) => v + difference[i]!);
    const design = designMatchEq({
      currentDb: input,
      referenceDb: reference,
      contentDb: input,
      sampleRate: FS,
      limits: MATCH_LIMITS.medium,
    });
    // The filter bank's own response (recomputed from its sections) follows the correction asked for.
    const sections = matchSections(design.eq, FS);
    THIRD_OCTAVE_CENTRES.forEach((f, i) => {
      if (!inDistanceBand(i)) return;
      expect(Math.abs(cascadeResponseDb(sections, f, FS) - design.correctionDb[i]!)).toBeLessThan(0.6);
    });
    // The correction is the difference up to a level (shape only): the corrected curve lands on the reference's shape.
    const corrected = input.map((v, i) => v + design.achievedDb[i]!);
    const offset = corrected[16]! - reference[16]!;
    expect(
      spectralDistanceDb(
        corrected.map((v) => v - offset),
        reference,
      ),
    ).toBeLessThan(0.5);
    expect(spectralDistanceDb(input, reference)).toBeGreaterThan(1.5);
  });

  it('never boosts a band the input does not play (45 dB under its loudest), and says so', () => {
    const content = input.map((v, i) => (THIRD_OCTAVE_NOMINAL[i]! >= 8000 ? v - 60 : v));
    const reference = input.map((v, i) => (THIRD_OCTAVE_NOMINAL[i]! >= 8000 ? v + 6 : v));
    const design = designMatchEq({
      currentDb: content,
      referenceDb: reference,
      contentDb: content,
      sampleRate: FS,
      limits: MATCH_LIMITS.high,
    });
    THIRD_OCTAVE_NOMINAL.forEach((hz, i) => {
      if (hz >= 8000 && hz <= 16000) expect(design.correctionDb[i]!).toBeLessThanOrEqual(0);
    });
    expect(design.refusedBoostHz).toEqual(expect.arrayContaining([8000, 10000, 12500, 16000]));
  });

  it('holds each band to the intensity limits and lists the capped bands', () => {
    const reference = input.map((v, i) => (THIRD_OCTAVE_NOMINAL[i] === 1000 ? v + 30 : v));
    const design = designMatchEq({
      currentDb: input,
      referenceDb: reference,
      contentDb: input,
      sampleRate: FS,
      limits: MATCH_LIMITS.medium,
    });
    const k = THIRD_OCTAVE_NOMINAL.indexOf(1000);
    expect(design.correctionDb[k]!).toBeLessThanOrEqual(MATCH_LIMITS.medium.maxBoostDb + 1e-9);
    expect(design.cappedHz).toContain(1000);
  });

  it('measures the distance between curves over 40 Hz-16 kHz (RMS dB)', () => {
    expect(spectralDistanceDb(input, input)).toBe(0);
    expect(
      spectralDistanceDb(
        input,
        input.map((v) => v + 1),
      ),
    ).toBeCloseTo(1, 6);
    // Bands outside 40 Hz-16 kHz do not count.
    const edges = input.map((v, i) => (inDistanceBand(i) ? v : v + 20));
    expect(spectralDistanceDb(input, edges)).toBe(0);
  });
});
