import { describe, expect, it } from '@jest/globals';
import { blockEnergies, integratedLoudness, loudnessRange, measureLoudness } from '../src/analysis/loudness';
import { TruePeakDetector } from '../src/dsp/true-peak';
import { LoudnessLimiter, normalizeLoudness } from '../src/master/normalize';
import type { Pcm } from '../src/pcm';

const FS = 44100;
const PARAMS = { ceilingDb: -1.25, lookahead: 0.003, hold: 0.006, release: 0.1 };
const TARGET_LUFS = -9;
const tick = async (): Promise<void> => undefined;

/** 24 s of stereo: noise under decaying tone bursts, in 4 s sections alternately loud and 14 dB quieter. */
function material(): Pcm {
  const n = 24 * FS;
  let seed = 11;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  const channels = [new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) {
    const level = Math.floor(i / (4 * FS)) % 2 === 0 ? 0.5 : 0.1;
    const burst = Math.exp(-(i % 11025) / 1500) * Math.sin((2 * Math.PI * (220 + 40 * (i % 7)) * i) / FS);
    channels[0]![i] = level * (0.3 * random() + 0.7 * burst);
    channels[1]![i] = level * (0.3 * random() + 0.6 * burst);
  }
  return { sampleRate: FS, channels };
}

/** A slow ride, as the leveler makes: between `lowDb` and `highDb` over an 8 s period. */
function ride(n: number, lowDb: number, highDb: number): Float32Array {
  const r = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const db = lowDb + ((highDb - lowDb) * (1 + Math.sin((2 * Math.PI * i) / (8 * FS)))) / 2;
    r[i] = Math.pow(10, db / 20);
  }
  return r;
}

const copy = (pcm: Pcm): Pcm => ({ sampleRate: pcm.sampleRate, channels: pcm.channels.map((ch) => ch.slice()) });
const lufsOf = (pcm: Pcm): number => measureLoudness(pcm.channels, pcm.sampleRate).integratedLufs;
const truePeakDb = (pcm: Pcm): number =>
  20 * Math.log10(Math.max(...pcm.channels.map((ch) => new TruePeakDetector(64, 90).maxAbs(ch))));

describe('the loudness stage prepared once, rendered again with a ride (reference mastering)', () => {
  it('renders a ridden input from the envelope it detected once, as a stage made on the ridden input does', async () => {
    const input = material();
    const n = input.channels[0]!.length;
    const r = ride(n, -6, 3);
    const fresh = copy(input);
    for (const ch of fresh.channels) for (let i = 0; i < n; i++) ch[i] = ch[i]! * r[i]!;
    await normalizeLoudness(fresh, TARGET_LUFS, PARAMS, tick);

    const master = copy(input);
    const stage = await LoudnessLimiter.prepare(master, TARGET_LUFS, PARAMS, tick, { rideHeadroomDb: 18 });
    const plain = await stage.render(null, master, tick);
    expect(plain.search.stats.maxReductionDb).toBeGreaterThan(3);
    const unridden = copy(master);
    const ridden = await stage.render(r, master, tick);
    stage.release();

    expect(Math.abs(lufsOf(master) - TARGET_LUFS)).toBeLessThan(0.05);
    expect(truePeakDb(master)).toBeLessThanOrEqual(PARAMS.ceilingDb + 0.1);
    // The same master, to well under the noise floor of a 16-bit file's dither: the difference 40 dB under it.
    let diff = 0;
    let energy = 0;
    master.channels.forEach((ch, c) => {
      for (let i = 0; i < n; i++) {
        diff += (ch[i]! - fresh.channels[c]![i]!) ** 2;
        energy += fresh.channels[c]![i]! ** 2;
      }
    });
    expect(10 * Math.log10(diff / energy)).toBeLessThan(-40);
    // And not the unridden master: the ride (-6 dB at 6 s, +3 dB at 2 s) is in it.
    const levelDb = (x: Pcm, at: number): number => {
      let sum = 0;
      for (let i = (at - 0.5) * FS; i < (at + 0.5) * FS; i++) sum += x.channels[0]![i]! ** 2;
      return 10 * Math.log10(sum);
    };
    expect(levelDb(master, 6) - levelDb(master, 2)).toBeLessThan(levelDb(unridden, 6) - levelDb(unridden, 2) - 4);
    // The ridden search started from the first one's gain and slope.
    expect(ridden.search.iterations).toBeLessThan(plain.search.iterations);
    expect(ridden.measuredLufs).toBeCloseTo(lufsOf(master), 2);
  });

  it("probes the unridden master's loudness and range before rendering it, then renders it from the probe", async () => {
    const master = material();
    const stage = await LoudnessLimiter.prepare(master, TARGET_LUFS, PARAMS, tick, { rideHeadroomDb: 18 });
    const before = master.channels[0]!.slice();
    const { steps, hop } = await stage.probe(tick);
    expect(master.channels[0]).toEqual(before);
    const result = await stage.render(null, master, tick);
    const measured = measureLoudness(master.channels, FS);
    expect(Math.abs(integratedLoudness(blockEnergies(steps, hop, 4)).lufs - measured.integratedLufs)).toBeLessThan(0.1);
    expect(Math.abs(loudnessRange(blockEnergies(steps, hop, 30)) - measured.loudnessRangeLu)).toBeLessThan(0.3);
    expect(result.measuredLufs).toBeCloseTo(measured.integratedLufs, 2);
    expect(Math.abs(measured.integratedLufs - TARGET_LUFS)).toBeLessThan(0.05);
  });

  it('keeps a ridden search within the input gains whose peaks it detected', async () => {
    // Peaks detected for no more than the push limit, then a ride that lifts one quiet passage by up to 9 dB: the
    // gain before it is held 9 dB (the ride's largest lift) and 1 dB (a correction's room) under that limit, so that
    // no peak it did not detect can reach the ceiling. With the headroom the same ride reaches the target.
    const loud = -8;
    const renders = await Promise.all(
      [0, 18].map(async (rideHeadroomDb) => {
        const master = material();
        const stage = await LoudnessLimiter.prepare(master, loud, PARAMS, tick, { rideHeadroomDb });
        // The static gain to the target, read on the band-limited input the stage left in `master`.
        const startDb = loud - lufsOf(master);
        const plain = await stage.render(null, master, tick);
        const lift = new Float32Array(master.channels[0]!.length);
        for (let i = 0; i < lift.length; i++) lift[i] = Math.pow(10, (9 * Math.exp(-(((i / FS - 6) / 0.5) ** 2))) / 20);
        const lifted = await stage.render(lift, master, tick);
        return { startDb, plain, lifted, truePeakDb: truePeakDb(master) };
      }),
    );
    const [held, covered] = renders as [(typeof renders)[0], (typeof renders)[0]];
    expect(held.plain.search.gainDb).toBeGreaterThan(held.startDb + 6);
    expect(Math.abs(held.plain.measuredLufs - loud)).toBeLessThan(0.05);
    expect(held.lifted.search.gainDb).toBeLessThanOrEqual(held.startDb + 12 - 9 - 1 + 1 + 1e-6);
    expect(held.lifted.measuredLufs).toBeLessThan(loud - 0.3);
    expect(Math.abs(covered.lifted.measuredLufs - loud)).toBeLessThan(0.05);
    for (const r of renders) expect(r.truePeakDb).toBeLessThanOrEqual(PARAMS.ceilingDb + 0.1);
  });

  it('refuses a ride on a stage not made for rides, and a render after it released its input', async () => {
    const master = material();
    const stage = await LoudnessLimiter.prepare(master, TARGET_LUFS, PARAMS, tick);
    await expect(stage.render(ride(master.channels[0]!.length, 0, 1), master, tick)).rejects.toThrow(/made for rides/);
    await stage.render(null, master, tick);
    await expect(stage.render(null, master, tick)).rejects.toThrow(/released/);
  });
});
