import { afterEach, describe, expect, it } from '@jest/globals';
import { type Biquad, BiquadChain, biquadRun, biquadState, filterInPlace, highpass, peaking } from '../src/dsp/biquad';
import { stereoCascade } from '../src/dsp/biquad-simd';
import { StereoThreeBandSplitter, ThreeBandSplitter } from '../src/dsp/crossover';
import { Random } from '../src/dsp/random';
import { kWeighting } from '../src/analysis/loudness';
import { PlanarCollector } from '../src/io/planar';
import { TruePeakLimiter } from '../src/master/limiter';
import type { Pcm } from '../src/pcm';

const FS = 44100;

function noise(n: number, seed: number): Float32Array {
  const rng = new Random(seed);
  // Programme-like: loud noise, then a decaying tail into silence (the states' denormal flush is exercised).
  return Float32Array.from(
    { length: n },
    (_, i) => 0.3 * rng.gaussian() * (i < n / 2 ? 1 : Math.exp(-(i - n / 2) / 50)),
  );
}

/** The reference match's filter bank: a 20 Hz high-pass and 29 third-octave peaking sections with mixed gains. */
function matchBank(): Biquad[] {
  const centres = [25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600];
  const more = [2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000];
  return [highpass(20, FS), ...[...centres, ...more].map((f, i) => peaking(f, FS, ((i * 7) % 13) - 6, 4.32))];
}

/** Bit-for-bit equality of two float arrays. */
const same = (a: Float32Array, b: Float32Array) =>
  a.length === b.length &&
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

afterEach(() => {
  delete process.env.KORA_ENGINE_NO_SIMD;
});

describe('stereo biquad cascade (WebAssembly SIMD)', () => {
  it('filters a stereo pair to the bit as the JavaScript cascade does, across chunks', async () => {
    const n = 600_000; // three 262144-sample chunks, the last one short
    const left = noise(n, 1);
    const right = noise(n, 2);
    const sections = matchBank();
    expect(stereoCascade(sections)).not.toBeNull();
    const simd: Pcm = { sampleRate: FS, channels: [left.slice(), right.slice()] };
    await filterInPlace(simd, sections);
    process.env.KORA_ENGINE_NO_SIMD = '1';
    const js: Pcm = { sampleRate: FS, channels: [left.slice(), right.slice()] };
    await filterInPlace(js, sections);
    // Something happened, and the same thing.
    expect(simd.channels[0]!.some((v, i) => Math.abs(v - left[i]!) > 1e-3)).toBe(true);
    for (let c = 0; c < 2; c++) expect(same(simd.channels[c]!, js.channels[c]!)).toBe(true);
  });

  it('matches per-channel BiquadChains, writing to separate outputs, across calls', () => {
    const n = 70_000;
    const x = noise(n, 3);
    const y = noise(n, 4);
    const sections = matchBank().slice(0, 7); // two groups, the second padded with an identity
    const cascade = stereoCascade(sections)!;
    const outL = new Float32Array(n);
    const outR = new Float32Array(n);
    cascade.run(x, y, outL, outR, 0, 40_000);
    cascade.run(x, y, outL, outR, 40_000, n);
    const l = new Float32Array(n);
    const r = new Float32Array(n);
    const chainL = new BiquadChain(sections);
    const chainR = new BiquadChain(sections);
    chainL.run(x, l, 0, 40_000);
    chainL.run(x, l, 40_000, n);
    chainR.run(y, r, 0, 40_000);
    chainR.run(y, r, 40_000, n);
    expect(same(outL, l)).toBe(true);
    expect(same(outR, r)).toBe(true);
  });

  it('rounds after each section when asked, as consecutive biquadRun passes through a Float32Array', () => {
    const n = 50_000;
    const x = noise(n, 5);
    const y = noise(n, 6);
    const [shelf, rlb] = kWeighting(FS);
    const cascade = stereoCascade([shelf, rlb], { roundEachSection: true })!;
    const outL = new Float32Array(n);
    const outR = new Float32Array(n);
    cascade.run(x, y, outL, outR, 0, n);
    for (const [src, out] of [
      [x, outL],
      [y, outR],
    ] as const) {
      const ref = new Float32Array(n);
      biquadRun(shelf, biquadState(), src, ref);
      biquadRun(rlb, biquadState(), ref, ref);
      expect(same(out, ref)).toBe(true);
    }
  });

  it('splits a stereo pair into three bands as two ThreeBandSplitters do', () => {
    const n = 65_536;
    const x = noise(n, 7);
    const y = noise(n, 8);
    const stereo = StereoThreeBandSplitter.create(150, 3000, FS)!;
    const bands = [0, 1].map(() => [new Float32Array(n), new Float32Array(n), new Float32Array(n)]) as [
      Float32Array[],
      Float32Array[],
    ];
    stereo.split(x, y, 0, n, bands);
    [x, y].forEach((src, c) => {
      const ref = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
      new ThreeBandSplitter(150, 3000, FS).split(src, 0, n, ref[0]!, ref[1]!, ref[2]!);
      for (let k = 0; k < 3; k++) expect(same(bands[c]![k]!, ref[k]!)).toBe(true);
    });
  });

  it("gives the limiter's loudness estimate unchanged", async () => {
    const n = 200_000;
    const pcm: Pcm = { sampleRate: FS, channels: [noise(n, 9), noise(n, 10)] };
    const params = { ceilingDb: -1.25, lookahead: 0.003, hold: 0.006, release: 0.1 };
    const ones = new Float32Array(n).fill(1);
    const simd = new TruePeakLimiter(pcm, params);
    await simd.prepareLoudness();
    process.env.KORA_ENGINE_NO_SIMD = '1';
    const js = new TruePeakLimiter(pcm, params);
    await js.prepareLoudness();
    expect(simd.estimateLoudness(2, ones)).toBe(js.estimateLoudness(2, ones));
  });

  it('is not used without WebAssembly SIMD (KORA_ENGINE_NO_SIMD=1)', () => {
    process.env.KORA_ENGINE_NO_SIMD = '1';
    expect(stereoCascade(matchBank())).toBeNull();
    expect(StereoThreeBandSplitter.create(150, 3000, FS)).toBeNull();
  });
});

describe('PlanarCollector.resultOfLength', () => {
  it('cuts or zero-pads to the exact length, as views while the capacity allows', () => {
    const frames = 1000;
    const bytes = new Uint8Array(new Float32Array(Array.from({ length: 2 * frames }, (_, i) => i + 1)).buffer);
    const collect = () => {
      const c = new PlanarCollector(2, frames);
      c.push(bytes);
      return c;
    };
    const shorter = collect().resultOfLength(990);
    expect(shorter[0]!.length).toBe(990);
    expect(shorter[1]![989]).toBe(2 * 989 + 2);
    const longer = collect().resultOfLength(1010);
    expect(Array.from(longer[0]!.subarray(995))).toEqual([1991, 1993, 1995, 1997, 1999, ...new Array(10).fill(0)]);
    const beyond = collect().resultOfLength(10 * frames); // more than the capacity: a zero-padded copy
    expect(beyond[1]!.length).toBe(10 * frames);
    expect(beyond[1]![999]).toBe(2000);
    expect(beyond[1]![1000]).toBe(0);
  });
});
