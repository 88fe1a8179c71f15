import { describe, expect, it } from '@jest/globals';
import { measureLoudness } from '../src/analysis/loudness';
import { copyingStage, limitToRange } from '../src/master/leveler';
import { applyGain, type Pcm } from '../src/pcm';

const FS = 44100;
const TARGET_LUFS = -14;

/** Stereo noise in sections of `seconds` each at the given peak levels (dBFS). */
function sections(levels: number[], seconds: number): Pcm {
  const per = Math.round(seconds * FS);
  const left = new Float32Array(levels.length * per);
  const right = new Float32Array(levels.length * per);
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  levels.forEach((db, s) => {
    const amplitude = 2 * Math.pow(10, db / 20);
    for (let i = s * per; i < (s + 1) * per; i++) {
      left[i] = amplitude * random();
      right[i] = amplitude * random();
    }
  });
  return { sampleRate: FS, channels: [left, right] };
}

const rangeOf = (pcm: Pcm): number => measureLoudness(pcm.channels, pcm.sampleRate).loudnessRangeLu;
const loudnessOf = (pcm: Pcm): number => measureLoudness(pcm.channels, pcm.sampleRate).integratedLufs;

/** The loudness stage as the tests need it: a static gain to the target, counted. */
function normaliser() {
  const calls = { count: 0 };
  const limit = async (pcm: Pcm): Promise<number> => {
    calls.count += 1;
    applyGain(pcm, Math.pow(10, (TARGET_LUFS - loudnessOf(pcm)) / 20));
    return calls.count;
  };
  return { calls, limit };
}

const tick = async (): Promise<void> => undefined;

describe('loudness-range leveler (reference mastering)', () => {
  it('rides verses 16 dB under their choruses before the limiter, so the master lands on the reference range', async () => {
    const pcm = sections([-6, -22, -6, -22, -6, -22, -6, -22], 10);
    const { calls, limit } = normaliser();
    const { result, leveler } = await limitToRange(pcm, 8, TARGET_LUFS, copyingStage(pcm, limit), tick);
    expect(leveler.fromLu).toBeGreaterThan(14);
    expect(leveler.applied).toBe(true);
    const after = rangeOf(pcm);
    expect(Math.abs(after - 8.3)).toBeLessThan(0.6);
    expect(leveler.toLu).toBeCloseTo(after, 1);
    expect(loudnessOf(pcm)).toBeCloseTo(TARGET_LUFS, 1);
    // The limiter ran again on the ridden input, and what it answered last is what the chain gets.
    expect(calls.count).toBe(leveler.limiterPasses);
    expect(result).toBe(calls.count);
    expect(leveler.limiterPasses).toBeLessThanOrEqual(3);
    expect(leveler.maxBoostDb).toBeGreaterThan(0);
    expect(leveler.maxCutDb).toBeGreaterThan(0);
    expect(leveler.reason).toMatch(/ridden \d+ % of the way/);
  });

  it('lands near the reference range when the limiter narrows the range too (measure, then correct)', async () => {
    const pcm = sections([-6, -22, -6, -22, -6, -22, -6, -22], 10);
    // A limiter that also squashes: every 100 ms step above -20 dBFS RMS 3 dB down, after the normalisation.
    const squash = async (x: Pcm): Promise<void> => {
      applyGain(x, Math.pow(10, (TARGET_LUFS - loudnessOf(x)) / 20));
      const hop = FS / 10;
      for (let s = 0; s * hop < x.channels[0]!.length; s++) {
        let sq = 0;
        for (let i = s * hop; i < (s + 1) * hop; i++) sq += x.channels[0]![i]! ** 2;
        if (10 * Math.log10(sq / hop) > -20)
          for (const ch of x.channels) for (let i = s * hop; i < (s + 1) * hop; i++) ch[i] = ch[i]! * 0.7;
      }
    };
    const { leveler } = await limitToRange(pcm, 6, TARGET_LUFS, copyingStage(pcm, squash), tick);
    expect(leveler.applied).toBe(true);
    expect(Math.abs(rangeOf(pcm) - 6.3)).toBeLessThan(1);
  });

  it('decides on the range of the master the limiter will make, not of a -40 dB input', async () => {
    const pcm = sections([-6, -22, -6, -22, -6, -22], 10);
    applyGain(pcm, Math.pow(10, -40 / 20));
    const { limit } = normaliser();
    const { leveler } = await limitToRange(pcm, 8, TARGET_LUFS, copyingStage(pcm, limit), tick);
    expect(leveler.applied).toBe(true);
    expect(Math.abs(rangeOf(pcm) - 8.3)).toBeLessThan(0.6);
  });

  it('limits once and rides nothing when the master is within 1 LU of the reference range, or narrower', async () => {
    for (const referenceLu of [3.5, 30]) {
      const pcm = sections([-10, -14, -10, -14, -10, -14], 10);
      const alone = { sampleRate: FS, channels: pcm.channels.map((ch) => Float32Array.from(ch)) };
      const { calls, limit } = normaliser();
      const { leveler } = await limitToRange(pcm, referenceLu, TARGET_LUFS, copyingStage(pcm, limit), tick);
      expect(leveler.applied).toBe(false);
      expect(leveler.reason).toMatch(/no ride/);
      expect(calls.count).toBe(1);
      await normaliser().limit(alone);
      pcm.channels.forEach((ch, c) =>
        expect(Buffer.compare(Buffer.from(ch.buffer), Buffer.from(alone.channels[c]!.buffer))).toBe(0),
      );
    }
  });

  it('lifts the quiet passages, not a pause between them', async () => {
    const pcm = sections([-6, -24, -70, -6, -24, -6], 10);
    const plain = { sampleRate: FS, channels: pcm.channels.map((ch) => Float32Array.from(ch)) };
    await normaliser().limit(plain);
    const { leveler } = await limitToRange(pcm, 6, TARGET_LUFS, copyingStage(pcm, normaliser().limit), tick);
    expect(leveler.applied).toBe(true);
    const rms = (x: Float32Array): number => Math.sqrt(x.reduce((sum, v) => sum + v * v, 0) / x.length);
    // The middle 2 s of a 10 s section, its level against the same master normalised without the ride, dB.
    const change = (section: number): number => {
      const cut = (x: Pcm) => x.channels[0]!.subarray((section * 10 + 4) * FS, (section * 10 + 6) * FS);
      return 20 * Math.log10(rms(cut(pcm)) / rms(cut(plain)));
    };
    // The quiet passage comes up; the pause moves only with the make-up the loud passages' cut lets the limiter add.
    expect(change(1)).toBeGreaterThan(5);
    expect(change(2)).toBeLessThan(3);
    expect(change(2)).toBeLessThan(change(1) / 2);
  });

  /**
   * A loudness stage that pins its quiet passages as a limiter pushed hard does: each 100 ms step's level above
   * -24 dBFS RMS comes out at a quarter of its excess, and the gain before it is searched so that the result
   * measures the target. With `sticky`, the gain its first call found is used again by the later ones.
   */
  function pinningLimiter(sticky = false): (x: Pcm) => Promise<void> {
    let kept: number | null = null;
    return async (x: Pcm): Promise<void> => {
      const hop = FS / 10;
      const squashed = (gainDb: number): Pcm => {
        const y = { sampleRate: FS, channels: x.channels.map((ch) => Float32Array.from(ch)) };
        applyGain(y, Math.pow(10, gainDb / 20));
        for (let s = 0; s * hop < y.channels[0]!.length; s++) {
          let sq = 0;
          for (let i = s * hop; i < (s + 1) * hop; i++) sq += y.channels[0]![i]! ** 2;
          const level = 10 * Math.log10(sq / hop);
          if (level <= -24) continue;
          const g = Math.pow(10, (-24 + (level + 24) / 4 - level) / 20);
          for (const ch of y.channels) for (let i = s * hop; i < (s + 1) * hop; i++) ch[i] = ch[i]! * g;
        }
        return y;
      };
      if (kept === null || !sticky) {
        let low = -20;
        let high = 40;
        for (let i = 0; i < 24; i++) {
          const mid = (low + high) / 2;
          if (loudnessOf(squashed(mid)) < TARGET_LUFS) low = mid;
          else high = mid;
        }
        kept = high;
      }
      const y = squashed(kept);
      x.channels.forEach((ch, c) => ch.set(y.channels[c]!));
    };
  }

  it('widens a range the limiter took back toward the reference, lowering quiet passages only, the loudness kept', async () => {
    const pcm = sections([-6, -26, -6, -26, -6, -26, -6, -26], 10);
    const plain = { sampleRate: FS, channels: pcm.channels.map((ch) => Float32Array.from(ch)) };
    await pinningLimiter()(plain);
    const { leveler } = await limitToRange(pcm, 15, TARGET_LUFS, copyingStage(pcm, pinningLimiter()), tick);
    expect(leveler.fromLu).toBeCloseTo(rangeOf(plain), 0);
    expect(leveler.fromLu).toBeLessThan(10);
    expect(leveler.applied).toBe(true);
    expect(leveler.depth).toBeLessThan(0);
    expect(leveler.maxBoostDb).toBe(0);
    expect(leveler.reason).toMatch(/quiet passages lowered/);
    const after = rangeOf(pcm);
    expect(after).toBeGreaterThan(leveler.fromLu + 3);
    expect(after).toBeLessThan(15 + 0.6);
    expect(leveler.toLu).toBeCloseTo(after, 1);
    expect(loudnessOf(pcm)).toBeGreaterThan(TARGET_LUFS - 0.15);
  });

  it('does not widen past the range of the limiter input, nor keep a widening that costs loudness', async () => {
    // The limiter input has about 4 LU of range, which the pinning stage narrows: widened at most back to it.
    const narrow = sections([-10, -14, -10, -14, -10, -14], 10);
    const inputLu = rangeOf(narrow);
    const capped = await limitToRange(narrow, 20, TARGET_LUFS, copyingStage(narrow, pinningLimiter()), tick);
    expect(rangeOf(narrow)).toBeLessThan(inputLu + 0.6);
    expect(capped.leveler.toLu).toBeLessThan(inputLu + 0.6);
    // A stage that keeps its first gain: lowering the quiet passages lowers the loudness, so no widening is kept and
    // the master is the one without a ride.
    const quiet = sections([-6, -16, -6, -16, -6, -16], 10);
    const plain = { sampleRate: FS, channels: quiet.channels.map((ch) => Float32Array.from(ch)) };
    await pinningLimiter()(plain);
    const kept = await limitToRange(quiet, 25, TARGET_LUFS, copyingStage(quiet, pinningLimiter(true)), tick);
    expect(kept.leveler.fromLu).toBeLessThan(kept.leveler.referenceLu - 2);
    expect(kept.leveler.depth).toBe(0);
    expect(kept.leveler.reason).toMatch(/none kept/);
    quiet.channels.forEach((ch, c) =>
      expect(Buffer.compare(Buffer.from(ch.buffer), Buffer.from(plain.channels[c]!.buffer))).toBe(0),
    );
  });
});
