import { describe, expect, it } from '@jest/globals';
import {
  BiquadChain,
  allpass,
  cascadeResponseDb,
  filtfiltInPlace,
  highpass,
  lowpass,
  peaking,
} from '../src/dsp/biquad';
import { ThreeBandSplitter } from '../src/dsp/crossover';
import { RealFft } from '../src/dsp/fft';
import { Random } from '../src/dsp/random';
import { simdInterpolator } from '../src/dsp/simd';
import { TruePeakDetector } from '../src/dsp/true-peak';
import { sine, whiteNoise } from '../eval/signals';
import { DitherNoise, encodeFrames } from '../src/io/wav';
import { TruePeakLimiter } from '../src/master/limiter';
import { compress } from '../src/enhance/speech';
import { compressTrack } from '../src/mix/compressor';
import type { Pcm } from '../src/pcm';

describe('RealFft', () => {
  it('matches a direct DFT within 1e-9 and inverts exactly', () => {
    const n = 64;
    const rng = new Random(3);
    const x = Float64Array.from({ length: n }, () => rng.gaussian());
    const fft = new RealFft(n);
    const re = new Float64Array(n / 2 + 1);
    const im = new Float64Array(n / 2 + 1);
    fft.forward(x, re, im);
    for (let k = 0; k <= n / 2; k++) {
      let dr = 0;
      let di = 0;
      for (let t = 0; t < n; t++) {
        dr += x[t]! * Math.cos((2 * Math.PI * k * t) / n);
        di -= x[t]! * Math.sin((2 * Math.PI * k * t) / n);
      }
      expect(Math.abs(re[k]! - dr)).toBeLessThan(1e-9);
      expect(Math.abs(im[k]! - di)).toBeLessThan(1e-9);
    }
    const back = new Float64Array(n);
    fft.inverse(re, im, back);
    for (let t = 0; t < n; t++) expect(Math.abs(back[t]! - x[t]!)).toBeLessThan(1e-12);
  });

  it('rejects sizes that are not powers of two', () => {
    expect(() => new RealFft(100)).toThrow(RangeError);
  });
});

describe('biquads', () => {
  it('a peaking section has its nominal gain at its centre frequency (0.01 dB)', () => {
    for (const fs of [44100, 48000]) {
      expect(Math.abs(cascadeResponseDb([peaking(1000, fs, 4, 1.41)], 1000, fs) - 4)).toBeLessThan(0.01);
      expect(Math.abs(cascadeResponseDb([peaking(8000, fs, -3, 1.41)], 8000, fs) + 3)).toBeLessThan(0.01);
    }
  });

  it('Butterworth sections are 3 dB down at their corner', () => {
    expect(Math.abs(cascadeResponseDb([highpass(80, 48000)], 80, 48000) + 3.01)).toBeLessThan(0.02);
    expect(Math.abs(cascadeResponseDb([lowpass(5000, 44100)], 5000, 44100) + 3.01)).toBeLessThan(0.02);
  });

  it('the fused four-section kernel matches section-by-section filtering', () => {
    const fs = 44100;
    const sections = [
      highpass(30, fs),
      peaking(200, fs, 3, 1),
      peaking(3000, fs, -2, 2),
      lowpass(15000, fs),
      allpass(500, fs),
    ];
    const x = whiteNoise(20000, 0.1, 5);
    const fused = x.slice();
    new BiquadChain(sections).run(fused, fused);
    const reference = x.slice();
    for (const s of sections) new BiquadChain([s]).run(reference, reference);
    let err = 0;
    for (let i = 0; i < x.length; i++) err = Math.max(err, Math.abs(fused[i]! - reference[i]!));
    expect(err).toBeLessThan(1e-6);
  });

  it('zero-phase filtering keeps a pass-band sine exactly in place', () => {
    const x = sine(440, 48000, 1, -6);
    const y = { channels: [x.slice()] };
    return filtfiltInPlace(y, [highpass(80, 48000)]).then(() => {
      let err = 0;
      for (let i = 4800; i < x.length - 4800; i++) err = Math.max(err, Math.abs(y.channels[0]![i]! - x[i]!));
      // |H|^2 at 440 Hz of an 80 Hz 2nd-order high-pass is 0.9995: an amplitude error, no time shift.
      expect(err).toBeLessThan(0.001);
    });
  });
});

describe('Linkwitz-Riley three-band split', () => {
  it('recombines to a flat magnitude (within 0.01 dB) across the spectrum', () => {
    const fs = 48000;
    for (const f of [40, 150, 600, 3000, 9000]) {
      const x = sine(f, fs, 1, -6);
      const low = new Float32Array(x.length);
      const mid = new Float32Array(x.length);
      const high = new Float32Array(x.length);
      new ThreeBandSplitter(150, 3000, fs).split(x, 0, x.length, low, mid, high);
      // RMS over the settled second half (an all-pass moves the phase, so sample peaks would not compare).
      let sumIn = 0;
      let sumOut = 0;
      for (let i = x.length / 2; i < x.length; i++) {
        sumIn += x[i]! * x[i]!;
        sumOut += (low[i]! + mid[i]! + high[i]!) ** 2;
      }
      expect(Math.abs(10 * Math.log10(sumOut / sumIn))).toBeLessThan(0.01);
    }
  });
});

describe('WebAssembly SIMD interpolation', () => {
  it('is available on this Node and reads the same peaks as the JavaScript path (within 1e-5)', () => {
    const x = whiteNoise(50_000, 0.2, 21);
    expect(simdInterpolator(new TruePeakDetector().coefs, 32)).not.toBeNull();
    const simdPath = new TruePeakDetector();
    process.env.KORA_ENGINE_NO_SIMD = '1';
    const jsPath = new TruePeakDetector();
    delete process.env.KORA_ENGINE_NO_SIMD;
    expect(Math.abs(simdPath.maxAbs(x) - jsPath.maxAbs(x))).toBeLessThan(1e-5);
    const a = new Float32Array(x.length);
    const b = new Float32Array(x.length);
    simdPath.envelope(x, a);
    jsPath.envelope(x, b);
    let worst = 0;
    for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    expect(worst).toBeLessThan(1e-5);
  });
});

describe('TPDF dither', () => {
  it('has zero mean, variance 1/6 LSB^2 and a triangular range within (-1, 1)', () => {
    const noise = new DitherNoise(7);
    const d = new Float64Array(200_000);
    noise.fill(d, d.length);
    let mean = 0;
    let min = Infinity;
    let max = -Infinity;
    for (const v of d) {
      mean += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    mean /= d.length;
    let variance = 0;
    for (const v of d) variance += (v - mean) ** 2;
    variance /= d.length;
    expect(Math.abs(mean)).toBeLessThan(0.005);
    expect(Math.abs(variance - 1 / 6)).toBeLessThan(0.005);
    expect(min).toBeGreaterThan(-1);
    expect(max).toBeLessThan(1);
  });

  it('decorrelates the quantisation error from a signal below 1 LSB (it is no longer silence or a square wave)', () => {
    const x = sine(1000, 44100, 0.2, 20 * Math.log10(0.4 / 32768)); // 0.4 LSB peak
    const out = Buffer.alloc(x.length * 2);
    encodeFrames({ sampleRate: 44100, channels: [x] }, 0, x.length, 'pcm16', null, out);
    const plain = new Int16Array(out.buffer, out.byteOffset, x.length).slice();
    encodeFrames({ sampleRate: 44100, channels: [x] }, 0, x.length, 'pcm16', new DitherNoise(1), out);
    const dithered = new Int16Array(out.buffer, out.byteOffset, x.length);
    expect(plain.every((v) => v === 0)).toBe(true); // without dither the tone vanishes
    // With dither its fundamental survives at its level: dither makes the quantiser unbiased, so the correlation with
    // the tone is what the unquantised tone (in LSB) would give, within 10 % (the noise term is about 2 % here).
    let dot = 0;
    let expected = 0;
    for (let i = 0; i < x.length; i++) {
      dot += dithered[i]! * x[i]!;
      expected += x[i]! * 32768 * x[i]!;
    }
    expect(Math.abs(dot / expected - 1)).toBeLessThan(0.1);
  });
});

describe('look-ahead true-peak limiter', () => {
  it('keeps the oversampled peak of random bursts at or under its ceiling (0.1 dB, accurate meter)', () => {
    const fs = 44100;
    const rng = new Random(11);
    const n = fs * 3;
    const x = new Float32Array(n);
    for (let i = 0; i < n; i++) x[i] = 0.05 * rng.gaussian();
    for (let b = 0; b < 40; b++) {
      const at = Math.floor(rng.next() * (n - 2000));
      const f = 80 + rng.next() * 6000;
      for (let k = 0; k < 1500; k++)
        x[at + k] = x[at + k]! + 0.9 * Math.exp(-k / 300) * Math.sin((2 * Math.PI * f * k) / fs);
    }
    const pcm = { sampleRate: fs, channels: [x] };
    const bandLimited = { sampleRate: fs, channels: [x.slice()] };
    new BiquadChain([lowpass(19800, fs, 0.5411961), lowpass(19800, fs, 1.306563)]).run(
      bandLimited.channels[0]!,
      bandLimited.channels[0]!,
    );
    const limiter = new TruePeakLimiter(bandLimited, { ceilingDb: -1, lookahead: 0.003, hold: 0.006, release: 0.08 });
    return limiter.prepare(Math.pow(10, 12 / 20)).then(async () => {
      const g = new Float32Array(n);
      const gain = Math.pow(10, 8 / 20); // drive 8 dB into the ceiling
      const stats = limiter.gainCurve(gain, g);
      const out = { sampleRate: fs, channels: [new Float32Array(n)] };
      await limiter.apply(gain, g, out);
      const peak = new TruePeakDetector(64, 90).maxAbs(out.channels[0]!);
      expect(stats.maxReductionDb).toBeGreaterThan(3);
      expect(20 * Math.log10(peak)).toBeLessThanOrEqual(-1 + 0.1);
      expect(pcm.channels[0]).toBe(x);
    });
  });
});

describe('the shared broadband compressor (mixer tracks, podcast preset)', () => {
  const fs = 48000;
  /** 2 s at -26 dBFS then 2 s at -8 dBFS, 440 Hz, stereo. */
  const stepUp = (): Pcm => {
    const ch = Float32Array.from([...sine(440, fs, 2, -26), ...sine(440, fs, 2, -8)]);
    return { sampleRate: fs, channels: [ch, ch.slice()] };
  };
  const rmsDb = (x: Float32Array, from: number, to: number): number => {
    let sum = 0;
    for (let i = from; i < to; i++) sum += x[i]! * x[i]!;
    return 10 * Math.log10(sum / (to - from));
  };

  it('takes about the asked depth off the loud passages and leaves the quiet ones alone (track compressor)', async () => {
    const pcm = stepUp();
    const before = [rmsDb(pcm.channels[0]!, fs / 2, 2 * fs), rmsDb(pcm.channels[0]!, 3 * fs, 4 * fs)];
    const report = await compressTrack(pcm, { ratio: 4, attackMs: 10, releaseMs: 100, depthDb: 6 });
    const after = [rmsDb(pcm.channels[0]!, fs / 2, 2 * fs), rmsDb(pcm.channels[0]!, 3 * fs, 4 * fs)];
    expect(after[0]! - before[0]!).toBeCloseTo(0, 1);
    expect(before[1]! - after[1]!).toBeGreaterThan(5);
    expect(before[1]! - after[1]!).toBeLessThan(7);
    expect(report.maxReductionDb).toBeGreaterThan(5);
    expect(pcm.channels[1]).toEqual(pcm.channels[0]); // stereo-linked
  });

  it('places the podcast threshold at the active level statistics and reports what it took', async () => {
    const pcm = stepUp();
    const decision = await compress(pcm, 2);
    // The loud half is above the 80th percentile of the active levels: it is at the threshold, barely touched.
    expect(decision.thresholdDb).toBeGreaterThan(-12);
    expect(decision.meanReductionDb).toBeGreaterThanOrEqual(0);
    expect(decision.meanReductionDb).toBeLessThan(3);
    expect(rmsDb(pcm.channels[0]!, fs / 2, 2 * fs)).toBeCloseTo(-29, 0);
  });
});
