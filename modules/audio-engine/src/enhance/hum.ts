/**
 * Mains hum: detection and removal.
 *
 * Detection averages Hann-windowed periodograms of 65536 samples (0.73 Hz bins at 48 kHz) of the mono sum and, for
 * both mains families (50 and 60 Hz), first locates the fundamental from the first two harmonics (the second
 * dominates rectifier hum; mains may be 1 % off nominal), then accepts every harmonic k f0 below 1.5 kHz whose peak
 * stands out from the median of the surrounding +-20 Hz by at least 10 dB and sits where the fundamental predicts
 * (+-(0.1 + 0.01 k) Hz: speech partials that merely fall near a multiple are not taken for hum). Peak frequencies are
 * refined by parabolic interpolation of the log spectrum and the fundamental by a weighted fit over harmonics up to
 * the 10th, so the notches follow a mains frequency that is a little off nominal. The family with the larger total
 * prominence wins.
 *
 * Removal: every harmonic up to the highest detected one (at least the 10th: hum harmonics hidden under the programme
 * in the spectrum are still audible in its gaps) gets a notch with a -3 dB bandwidth of 1.5 + 0.3 k Hz (narrow enough to leave
 * speech intact, wide enough for the estimate's error, which grows with k), run forward and backward (zero phase, and
 * the depth doubles in dB where the frequency estimate is slightly off).
 */
import { type Biquad, notch } from '../dsp/biquad';
import { RealFft, addPower, hann } from '../dsp/fft';
import type { Tick } from '../stage/context';

export interface HumHarmonic {
  k: number;
  freqHz: number;
  prominenceDb: number;
}

export interface HumDetection {
  detected: boolean;
  /** Harmonics notched: every k from 1 to max(highest detected, 10), even those under the speech or music. */
  notchedUpTo: number;
  /** Mains family: 50 or 60 Hz. */
  family: 50 | 60 | null;
  fundamentalHz: number | null;
  harmonics: HumHarmonic[];
}

const FFT = 65536;
const MAX_FRAMES = 24;
const MAX_FREQ = 1500;
const MIN_PROMINENCE_DB = 10;
/** Once hum is established, harmonics up to this order are notched even where programme masks them in the spectrum. */
const IMPLIED_HARMONICS = 10;

/**
 * The mono sum's frame from sample s, windowed, into frame (zeros past the end). A small function of typed arrays, so
 * V8 optimises it once for every job (inline in detectHum it ran partly unoptimised in each).
 */
function monoFrame(channels: readonly Float32Array[], s: number, win: Float64Array, frame: Float64Array): void {
  const nc = channels.length;
  const inside = Math.max(0, Math.min(frame.length, (channels[0]?.length ?? 0) - s));
  for (let i = 0; i < inside; i++) {
    let v = 0;
    for (let c = 0; c < nc; c++) v += channels[c]![s + i]!;
    frame[i] = (v / nc) * win[i]!;
  }
  frame.fill(0, inside);
}

export async function detectHum(channels: readonly Float32Array[], fs: number, tick?: Tick): Promise<HumDetection> {
  const n = channels[0]?.length ?? 0;
  const none: HumDetection = { detected: false, notchedUpTo: 0, family: null, fundamentalHz: null, harmonics: [] };
  const size = n >= FFT ? FFT : Math.max(4096, 1 << Math.floor(Math.log2(Math.max(4096, n))));
  if (n < size / 2) return none;
  const fft = new RealFft(size);
  const win = hann(size);
  const frame = new Float64Array(size);
  const re = new Float64Array(size / 2 + 1);
  const im = new Float64Array(size / 2 + 1);
  const power = new Float64Array(size / 2 + 1);
  const total = Math.max(1, Math.floor((n - size) / (size / 2)) + 1);
  const count = Math.min(MAX_FRAMES, total);
  for (let f = 0; f < count; f++) {
    const s = count === 1 ? 0 : Math.round((f * Math.max(0, n - size)) / (count - 1));
    monoFrame(channels, s, win, frame);
    fft.forward(frame, re, im);
    addPower(re, im, power);
    if (tick) await tick((f + 1) / count);
  }
  const df = fs / size;
  const logp = Array.from(power, (p) => 10 * Math.log10(p + 1e-30));
  /** Largest bin within +-halfWidth Hz of f, its prominence over the +-20 Hz median, and its refined frequency. */
  const peakNear = (f: number, halfWidth: number): { freqHz: number; prominenceDb: number } | null => {
    const centre = Math.round(f / df);
    const search = Math.max(1, Math.round(halfWidth / df));
    if (centre + search + 1 >= logp.length || centre - search - 1 < 1) return null;
    let peak = centre;
    for (let b = centre - search; b <= centre + search; b++) if (logp[b]! > logp[peak]!) peak = b;
    const ring: number[] = [];
    const span = Math.round(20 / df);
    for (let b = centre - span; b <= centre + span; b++) {
      if (Math.abs(b - peak) > 3 && b > 0 && b < logp.length) ring.push(logp[b]!);
    }
    ring.sort((a, b) => a - b);
    const floor = ring[Math.floor(ring.length / 2)] ?? logp[peak]!;
    // Parabolic interpolation of the log spectrum around the peak gives a sub-bin frequency.
    const a = logp[peak - 1]!;
    const b = logp[peak]!;
    const c = logp[peak + 1]!;
    const den = a - 2 * b + c;
    const delta = den !== 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / den)) : 0;
    return { freqHz: (peak + delta) * df, prominenceDb: b - floor };
  };
  const examine = (family: 50 | 60): { fundamental: number; harmonics: HumHarmonic[] } | null => {
    // 1. The fundamental from the first two harmonics (mains may be off by up to 1 %).
    let wsum = 0;
    let fsum = 0;
    for (const k of [1, 2]) {
      const p = peakNear(k * family, 0.5 + 0.01 * k * family);
      if (p && p.prominenceDb >= MIN_PROMINENCE_DB) {
        wsum += p.prominenceDb;
        fsum += (p.prominenceDb * p.freqHz) / k;
      }
    }
    if (wsum === 0) return null;
    let f0 = fsum / wsum;
    // 2. Every harmonic must sit where the fundamental predicts (+-(0.1 + 0.01 k) Hz) and stand out by 10 dB;
    //    harmonics up to the 10th refine the fundamental.
    const found: HumHarmonic[] = [];
    wsum = 0;
    fsum = 0;
    for (let k = 1; k * f0 <= MAX_FREQ; k++) {
      const tolerance = 0.1 + 0.01 * k;
      const p = peakNear(k * f0, tolerance + 2 * df);
      if (!p || p.prominenceDb < MIN_PROMINENCE_DB || Math.abs(p.freqHz - k * f0) > tolerance) continue;
      found.push({ k, freqHz: p.freqHz, prominenceDb: p.prominenceDb });
      if (k <= 10) {
        wsum += p.prominenceDb * k;
        fsum += p.prominenceDb * p.freqHz;
      }
    }
    if (wsum > 0) f0 = fsum / wsum;
    return { fundamental: f0, harmonics: found };
  };
  const h50 = examine(50);
  const h60 = examine(60);
  const valid = (h: ReturnType<typeof examine>) =>
    h !== null && h.harmonics.length >= 2 && h.harmonics.some((x) => x.k <= 2);
  const score = (h: ReturnType<typeof examine>) =>
    valid(h) ? h!.harmonics.reduce((a, x) => a + x.prominenceDb, 0) : 0;
  const pick = score(h50) >= score(h60) ? h50 : h60;
  if (!pick || !valid(pick)) return none;
  const family = pick === h50 ? 50 : 60;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const highest = Math.max(...pick.harmonics.map((h) => h.k));
  return {
    detected: true,
    notchedUpTo: Math.min(Math.floor(MAX_FREQ / pick.fundamental), Math.max(highest, IMPLIED_HARMONICS)),
    family,
    fundamentalHz: round(pick.fundamental),
    harmonics: pick.harmonics.map((h) => ({
      k: h.k,
      freqHz: round(pick.fundamental * h.k),
      prominenceDb: round(h.prominenceDb),
    })),
  };
}

/** Notch sections for a detection (empty when none), meant to be run forward and backward. */
export function humNotches(detection: HumDetection, fs: number): Biquad[] {
  if (!detection.detected || detection.fundamentalHz === null) return [];
  const sections: Biquad[] = [];
  for (let k = 1; k <= detection.notchedUpTo; k++) {
    const f = detection.fundamentalHz * k;
    const bw = 1.5 + 0.3 * k;
    sections.push(notch(f, fs, f / bw));
  }
  return sections;
}
