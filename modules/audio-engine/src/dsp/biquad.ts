/**
 * Second-order IIR sections. Designs follow R. Bristow-Johnson's "Cookbook formulae for audio EQ biquad filter
 * coefficients" (bilinear transform with frequency pre-warping, K = tan(pi f0 / fs)); coefficients are normalised so
 * that a0 = 1:  y[n] = b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2].
 * Processing uses the transposed direct form II in double precision, which keeps low-frequency sections (20-150 Hz at
 * 48 kHz) well conditioned.
 */
import { stereoCascade } from './biquad-simd';

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

export const IDENTITY: Biquad = { b0: 1, b1: 0, b2: 0, a1: 0, a2: 0 };
export const BUTTERWORTH_Q = Math.SQRT1_2;

function normalise(b0: number, b1: number, b2: number, a0: number, a1: number, a2: number): Biquad {
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0 };
}

function omega(f0: number, fs: number): { cos: number; sin: number } {
  const w = (2 * Math.PI * Math.min(f0, fs * 0.499)) / fs;
  return { cos: Math.cos(w), sin: Math.sin(w) };
}

export function lowpass(f0: number, fs: number, q = BUTTERWORTH_Q): Biquad {
  const { cos, sin } = omega(f0, fs);
  const alpha = sin / (2 * q);
  return normalise((1 - cos) / 2, 1 - cos, (1 - cos) / 2, 1 + alpha, -2 * cos, 1 - alpha);
}

export function highpass(f0: number, fs: number, q = BUTTERWORTH_Q): Biquad {
  const { cos, sin } = omega(f0, fs);
  const alpha = sin / (2 * q);
  return normalise((1 + cos) / 2, -(1 + cos), (1 + cos) / 2, 1 + alpha, -2 * cos, 1 - alpha);
}

/** Peaking EQ with gain in dB and bandwidth expressed as Q. */
export function peaking(f0: number, fs: number, gainDb: number, q: number): Biquad {
  const { cos, sin } = omega(f0, fs);
  const A = Math.pow(10, gainDb / 40);
  const alpha = sin / (2 * q);
  return normalise(1 + alpha * A, -2 * cos, 1 - alpha * A, 1 + alpha / A, -2 * cos, 1 - alpha / A);
}

/** Shelf with slope S = 1 (the steepest without overshoot). */
export function lowShelf(f0: number, fs: number, gainDb: number, slope = 1): Biquad {
  const { cos, sin } = omega(f0, fs);
  const A = Math.pow(10, gainDb / 40);
  const alpha = (sin / 2) * Math.sqrt((A + 1 / A) * (1 / slope - 1) + 2);
  const sq = 2 * Math.sqrt(A) * alpha;
  return normalise(
    A * (A + 1 - (A - 1) * cos + sq),
    2 * A * (A - 1 - (A + 1) * cos),
    A * (A + 1 - (A - 1) * cos - sq),
    A + 1 + (A - 1) * cos + sq,
    -2 * (A - 1 + (A + 1) * cos),
    A + 1 + (A - 1) * cos - sq,
  );
}

export function highShelf(f0: number, fs: number, gainDb: number, slope = 1): Biquad {
  const { cos, sin } = omega(f0, fs);
  const A = Math.pow(10, gainDb / 40);
  const alpha = (sin / 2) * Math.sqrt((A + 1 / A) * (1 / slope - 1) + 2);
  const sq = 2 * Math.sqrt(A) * alpha;
  return normalise(
    A * (A + 1 + (A - 1) * cos + sq),
    -2 * A * (A - 1 + (A + 1) * cos),
    A * (A + 1 + (A - 1) * cos - sq),
    A + 1 - (A - 1) * cos + sq,
    2 * (A - 1 - (A + 1) * cos),
    A + 1 - (A - 1) * cos - sq,
  );
}

/** Notch (band-reject) of quality q: -3 dB bandwidth f0 / q, infinite depth at f0. */
export function notch(f0: number, fs: number, q: number): Biquad {
  const { cos, sin } = omega(f0, fs);
  const alpha = sin / (2 * q);
  return normalise(1, -2 * cos, 1, 1 + alpha, -2 * cos, 1 - alpha);
}

/** Second-order all-pass (unit magnitude, phase turning through -180 degrees at f0). */
export function allpass(f0: number, fs: number, q = BUTTERWORTH_Q): Biquad {
  const { cos, sin } = omega(f0, fs);
  const alpha = sin / (2 * q);
  return normalise(1 - alpha, -2 * cos, 1 + alpha, 1 + alpha, -2 * cos, 1 - alpha);
}

/** Complex frequency response H(e^jw) of a section at frequency f. */
export function response(c: Biquad, f: number, fs: number): { re: number; im: number } {
  const w = (2 * Math.PI * f) / fs;
  const c1 = Math.cos(w);
  const s1 = Math.sin(w);
  const c2 = Math.cos(2 * w);
  const s2 = Math.sin(2 * w);
  const nr = c.b0 + c.b1 * c1 + c.b2 * c2;
  const ni = -(c.b1 * s1 + c.b2 * s2);
  const dr = 1 + c.a1 * c1 + c.a2 * c2;
  const di = -(c.a1 * s1 + c.a2 * s2);
  const den = dr * dr + di * di;
  return { re: (nr * dr + ni * di) / den, im: (ni * dr - nr * di) / den };
}

/** Magnitude response in dB of a cascade of sections at frequency f. */
export function cascadeResponseDb(sections: readonly Biquad[], f: number, fs: number): number {
  let db = 0;
  for (const s of sections) {
    const { re, im } = response(s, f, fs);
    db += 10 * Math.log10(re * re + im * im);
  }
  return db;
}

/** Filter state of one section on one channel (transposed direct form II: s1, s2). */
export type BiquadState = Float64Array;
export const biquadState = (): BiquadState => new Float64Array(2);

/** Filters x[start, end) into y[start, end) (y may be x). */
export function biquadRun(
  c: Biquad,
  state: BiquadState,
  x: Float32Array,
  y: Float32Array,
  start = 0,
  end = x.length,
): void {
  const { b0, b1, b2, a1, a2 } = c;
  let s1 = state[0]!;
  let s2 = state[1]!;
  for (let i = start; i < end; i++) {
    const xi = x[i]!;
    const yi = b0 * xi + s1;
    s1 = b1 * xi - a1 * yi + s2;
    s2 = b2 * xi - a2 * yi;
    y[i] = yi;
  }
  // Flush denormals: a decaying tail far below the float range costs time and carries nothing.
  state[0] = Math.abs(s1) < 1e-30 ? 0 : s1;
  state[1] = Math.abs(s2) < 1e-30 ? 0 : s2;
}

/**
 * Four cascaded sections in one pass (coefficients and states in registers): the CPU overlaps the four recursions,
 * which runs about twice as fast as four separate passes. Missing sections are identities.
 */
function runFour(
  c: readonly Biquad[],
  st: Float64Array,
  x: Float32Array,
  y: Float32Array,
  start: number,
  end: number,
): void {
  const A = c[0] ?? IDENTITY;
  const B = c[1] ?? IDENTITY;
  const C = c[2] ?? IDENTITY;
  const D = c[3] ?? IDENTITY;
  const { b0: a0, b1: a1b, b2: a2b, a1: a1a, a2: a2a } = A;
  const { b0: b0, b1: b1b, b2: b2b, a1: b1a, a2: b2a } = B;
  const { b0: c0, b1: c1b, b2: c2b, a1: c1a, a2: c2a } = C;
  const { b0: d0, b1: d1b, b2: d2b, a1: d1a, a2: d2a } = D;
  let p1 = st[0]!,
    p2 = st[1]!,
    q1 = st[2]!,
    q2 = st[3]!,
    r1 = st[4]!,
    r2 = st[5]!,
    s1 = st[6]!,
    s2 = st[7]!;
  for (let i = start; i < end; i++) {
    const xi = x[i]!;
    const u = a0 * xi + p1;
    p1 = a1b * xi - a1a * u + p2;
    p2 = a2b * xi - a2a * u;
    const v = b0 * u + q1;
    q1 = b1b * u - b1a * v + q2;
    q2 = b2b * u - b2a * v;
    const w = c0 * v + r1;
    r1 = c1b * v - c1a * w + r2;
    r2 = c2b * v - c2a * w;
    const z = d0 * w + s1;
    s1 = d1b * w - d1a * z + s2;
    s2 = d2b * w - d2a * z;
    y[i] = z;
  }
  const flush = (v: number) => (Math.abs(v) < 1e-30 ? 0 : v);
  st[0] = flush(p1);
  st[1] = flush(p2);
  st[2] = flush(q1);
  st[3] = flush(q2);
  st[4] = flush(r1);
  st[5] = flush(r2);
  st[6] = flush(s1);
  st[7] = flush(s2);
}

/** Two cascaded sections in one pass (for groups that would otherwise pad runFour with identities). */
function runTwo(
  c: readonly Biquad[],
  st: Float64Array,
  x: Float32Array,
  y: Float32Array,
  start: number,
  end: number,
): void {
  const A = c[0] ?? IDENTITY;
  const B = c[1] ?? IDENTITY;
  const { b0: a0, b1: a1b, b2: a2b, a1: a1a, a2: a2a } = A;
  const { b0: b0, b1: b1b, b2: b2b, a1: b1a, a2: b2a } = B;
  let p1 = st[0]!,
    p2 = st[1]!,
    q1 = st[2]!,
    q2 = st[3]!;
  for (let i = start; i < end; i++) {
    const xi = x[i]!;
    const u = a0 * xi + p1;
    p1 = a1b * xi - a1a * u + p2;
    p2 = a2b * xi - a2a * u;
    const v = b0 * u + q1;
    q1 = b1b * u - b1a * v + q2;
    q2 = b2b * u - b2a * v;
    y[i] = v;
  }
  const flush = (v: number) => (Math.abs(v) < 1e-30 ? 0 : v);
  st[0] = flush(p1);
  st[1] = flush(p2);
  st[2] = flush(q1);
  st[3] = flush(q2);
}

/** A cascade of sections applied to one channel, with its own state (continues across calls). */
export class BiquadChain {
  private readonly states: Float64Array[];
  constructor(readonly sections: readonly Biquad[]) {
    this.states = [];
    for (let k = 0; k < sections.length; k += 4) this.states.push(new Float64Array(8));
  }
  run(x: Float32Array, y: Float32Array, start = 0, end = x.length): void {
    if (this.sections.length === 0) {
      if (x !== y) y.set(x.subarray(start, end), start);
      return;
    }
    let src = x;
    for (let g = 0; g < this.states.length; g++) {
      const group = this.sections.slice(4 * g, 4 * g + 4);
      if (group.length <= 2) runTwo(group, this.states[g]!, src, y, start, end);
      else runFour(group, this.states[g]!, src, y, start, end);
      src = y;
    }
  }
}

/** Runs the same cascade over every channel of `pcm` in place, in chunks, ticking progress. */
export async function filterInPlace(
  pcm: { channels: Float32Array[] },
  sections: readonly Biquad[],
  tick?: (fraction: number) => Promise<void>,
): Promise<void> {
  const count = pcm.channels.length;
  // A stereo pair runs both channels at once on the SIMD kernel (the same results to the bit, about twice as fast).
  const stereo = count === 2 && pcm.channels[0]!.length === pcm.channels[1]!.length ? stereoCascade(sections) : null;
  if (stereo) {
    const [l, r] = pcm.channels as [Float32Array, Float32Array];
    for (let s = 0; s < l.length; s += 262144) {
      const e = Math.min(l.length, s + 262144);
      stereo.run(l, r, l, r, s, e);
      if (tick) await tick(e / l.length);
    }
    return;
  }
  for (let c = 0; c < count; c++) {
    const chain = new BiquadChain(sections);
    const x = pcm.channels[c]!;
    for (let s = 0; s < x.length; s += 262144) {
      const e = Math.min(x.length, s + 262144);
      chain.run(x, x, s, e);
      if (tick) await tick((c + e / x.length) / count);
    }
  }
}

/**
 * Zero-phase filtering (forward then backward, like MATLAB's filtfilt without edge padding): the magnitude response
 * is squared and the phase cancels, so nothing moves in time. Possible because the engine works offline; used where
 * the waveform must stay aligned with the source (speech enhancement is judged sample by sample, SI-SDR).
 */
export async function filtfiltInPlace(
  pcm: { channels: Float32Array[] },
  sections: readonly Biquad[],
  tick?: (fraction: number) => Promise<void>,
): Promise<void> {
  if (sections.length === 0) return;
  await filterInPlace(pcm, sections, tick ? (f) => tick(f / 2) : undefined);
  for (const ch of pcm.channels) ch.reverse();
  await filterInPlace(pcm, sections, tick ? (f) => tick(0.5 + f / 2) : undefined);
  for (const ch of pcm.channels) ch.reverse();
}
