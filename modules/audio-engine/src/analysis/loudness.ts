/**
 * Loudness per ITU-R BS.1770-4 and EBU R 128 (EBU Tech 3341 meters, EBU Tech 3342 loudness range).
 *
 * K-weighting (BS.1770-4 Annex 1) is a high-shelf "pre-filter" (+4 dB above ~1.7 kHz, modelling the head) followed
 * by the RLB high-pass (~38 Hz). The Annex tabulates coefficients for 48 kHz only; here the analogue prototypes
 * (f0, Q, gain) that reproduce those coefficients are re-discretised with the bilinear transform for any rate, as in
 * libebur128: K = tan(pi f0 / fs).
 *
 * Mean square per 100 ms step z, then (eq. 1-2) for a block of channels i with weights G_i:
 *   L = -0.691 + 10 log10( sum_i G_i z_i )   LUFS
 * Momentary: 400 ms blocks; short-term: 3 s blocks; both sliding by 100 ms.
 * Integrated (eq. 3-7): 400 ms blocks with 75 % overlap, gated absolutely at -70 LUFS and then relatively at 10 LU
 * below the loudness of the blocks that passed the absolute gate.
 * Loudness range (Tech 3342): short-term values (3 s, every 100 ms), absolute gate -70 LUFS, relative gate 20 LU below
 * their power mean, then the difference between the 95th and 10th percentiles (nearest rank).
 */
import { type Biquad, type BiquadState, biquadState } from '../dsp/biquad';

export const ABSOLUTE_GATE_LUFS = -70;
export const RELATIVE_GATE_LU = -10;
export const LRA_RELATIVE_GATE_LU = -20;

/** The two K-weighting stages for sample rate fs: [pre-filter (high shelf), RLB high-pass]. */
export function kWeighting(fs: number): [Biquad, Biquad] {
  // Stage 1, high shelf: f0 = 1681.97 Hz, gain 3.99984 dB, Q = 0.70718 (fit to the Annex's 48 kHz coefficients).
  let f0 = 1681.974450955533;
  const G = 3.999843853973347;
  let Q = 0.7071752369554196;
  let K = Math.tan((Math.PI * f0) / fs);
  const Vh = Math.pow(10, G / 20);
  const Vb = Math.pow(Vh, 0.4996667741545416);
  let a0 = 1 + K / Q + K * K;
  const shelf: Biquad = {
    b0: (Vh + (Vb * K) / Q + K * K) / a0,
    b1: (2 * (K * K - Vh)) / a0,
    b2: (Vh - (Vb * K) / Q + K * K) / a0,
    a1: (2 * (K * K - 1)) / a0,
    a2: (1 - K / Q + K * K) / a0,
  };
  // Stage 2, RLB high-pass: f0 = 38.135 Hz, Q = 0.50033, numerator (1, -2, 1) as in the Annex.
  f0 = 38.13547087602444;
  Q = 0.5003270373238773;
  K = Math.tan((Math.PI * f0) / fs);
  a0 = 1 + K / Q + K * K;
  const rlb: Biquad = { b0: 1, b1: -2, b2: 1, a1: (2 * (K * K - 1)) / a0, a2: (1 - K / Q + K * K) / a0 };
  return [shelf, rlb];
}

/**
 * Channel weights G_i (BS.1770-4 Table 3): 1.0 for left, right and centre, 1.41 (+1.5 dB) for the surrounds, 0 for
 * LFE. Channel order is ffmpeg's: FL FR FC LFE BL BR for 5.1, L R C Ls Rs for 5.0.
 *
 * A single channel is measured as it plays: a mono file is reproduced on both speakers of a stereo pair, so it is
 * weighted 2 (+3.01 dB), the loudness of the same signal on two channels (BS.1770's dual-mono case, ffmpeg's
 * `ebur128=dualmono=true`). Every loudness the engine reports or targets follows this rule; `dualMono: false` gives
 * the plain one-channel sum (a mono file that feeds a single speaker).
 */
export function channelWeights(channels: number, dualMono = true): number[] {
  if (channels === 1) return [dualMono ? 2 : 1];
  if (channels === 5) return [1, 1, 1, 1.41, 1.41];
  if (channels >= 6) return [1, 1, 1, 0, 1.41, 1.41, ...Array<number>(channels - 6).fill(1)];
  return Array<number>(channels).fill(1);
}

export const energyToLufs = (z: number): number => (z > 0 ? -0.691 + 10 * Math.log10(z) : -Infinity);
export const lufsToEnergy = (l: number): number => Math.pow(10, (l + 0.691) / 10);

/**
 * Accumulates the weighted K-weighted energy of consecutive 100 ms steps. Feed it consecutive ranges of the same
 * signal; `steps` then holds sum_i G_i sum_n y_i[n]^2 per step (divide by the step length for z).
 */
export class LoudnessAccumulator {
  readonly hop: number;
  private readonly stages: [Biquad, Biquad];
  private readonly states: BiquadState[][];
  private readonly weights: number[];
  private energies = new Float64Array(1024);
  private stepCount = 0;
  private partial = 0;
  private partialLength = 0;
  private scratch = new Float64Array(0);

  constructor(
    readonly sampleRate: number,
    readonly channelCount: number,
    dualMono = true,
  ) {
    this.hop = Math.round(sampleRate / 10);
    this.stages = kWeighting(sampleRate);
    this.states = Array.from({ length: channelCount }, () => [biquadState(), biquadState()]);
    this.weights = channelWeights(channelCount, dualMono);
  }

  /** Adds frames [start, end) of `channels` (which must continue where the previous call stopped). */
  add(channels: readonly Float32Array[], start: number, end: number): void {
    // Bounded scratch: a whole 4-minute track at once would allocate (and page in) 85 MB for nothing.
    for (let s = start; s < end; s += 65536) this.addChunk(channels, s, Math.min(end, s + 65536));
  }

  private addChunk(channels: readonly Float32Array[], start: number, end: number): void {
    const n = end - start;
    if (n <= 0) return;
    if (this.scratch.length < n) this.scratch = new Float64Array(n);
    const sq = this.scratch;
    sq.fill(0, 0, n);
    const [s1, s2] = this.stages;
    if (this.channelCount === 2 && this.weights[0] === 1 && this.weights[1] === 1) {
      this.addStereo(channels[0]!, channels[1]!, start, n, sq);
    } else {
      for (let c = 0; c < this.channelCount; c++) {
        const g = this.weights[c]!;
        if (g === 0) continue;
        const [st1, st2] = this.states[c]!;
        addWeightedSquares(channels[c]!, start, n, s1, s2, st1!, st2!, g, sq);
      }
    }
    for (let i = 0; i < n;) {
      const take = Math.min(n - i, this.hop - this.partialLength);
      this.partial += sumRange(sq, i, i + take);
      this.partialLength += take;
      i += take;
      if (this.partialLength === this.hop) this.completeStep();
    }
  }

  /** Stores the finished 100 ms step (growing the store as needed) and starts the next. */
  private completeStep(): void {
    if (this.stepCount === this.energies.length) {
      const grown = new Float64Array(this.energies.length * 2);
      grown.set(this.energies);
      this.energies = grown;
    }
    this.energies[this.stepCount++] = this.partial;
    this.partial = 0;
    this.partialLength = 0;
  }

  /** Both channels of a stereo pair in one loop: two independent recursions the CPU runs side by side. */
  private addStereo(l: Float32Array, r: Float32Array, start: number, n: number, sq: Float64Array): void {
    const [s1, s2] = this.stages;
    const { b0: ab0, b1: ab1, b2: ab2, a1: aa1, a2: aa2 } = s1;
    const { b0: bb0, b1: bb1, b2: bb2, a1: ba1, a2: ba2 } = s2;
    const [lp, lq] = this.states[0]!;
    const [rp, rq] = this.states[1]!;
    let p1 = lp![0]!,
      p2 = lp![1]!,
      q1 = lq![0]!,
      q2 = lq![1]!;
    let u1 = rp![0]!,
      u2 = rp![1]!,
      v1 = rq![0]!,
      v2 = rq![1]!;
    for (let i = 0; i < n; i++) {
      const xl = l[start + i]!;
      const xr = r[start + i]!;
      const ul = ab0 * xl + p1;
      p1 = ab1 * xl - aa1 * ul + p2;
      p2 = ab2 * xl - aa2 * ul;
      const yl = bb0 * ul + q1;
      q1 = bb1 * ul - ba1 * yl + q2;
      q2 = bb2 * ul - ba2 * yl;
      const ur = ab0 * xr + u1;
      u1 = ab1 * xr - aa1 * ur + u2;
      u2 = ab2 * xr - aa2 * ur;
      const yr = bb0 * ur + v1;
      v1 = bb1 * ur - ba1 * yr + v2;
      v2 = bb2 * ur - ba2 * yr;
      sq[i] = yl * yl + yr * yr;
    }
    lp![0] = p1;
    lp![1] = p2;
    lq![0] = q1;
    lq![1] = q2;
    rp![0] = u1;
    rp![1] = u2;
    rq![0] = v1;
    rq![1] = v2;
  }

  /** Weighted energy sums of the complete 100 ms steps so far. */
  steps(): Float64Array {
    return this.energies.subarray(0, this.stepCount);
  }
}

/**
 * sq[i] += g y[i]^2 for y = x[start + i] through the two K-weighting stages (states updated), i < n. Kept as small
 * functions of typed arrays and numbers so V8 optimises them once for all jobs.
 */
function addWeightedSquares(
  x: Float32Array,
  start: number,
  n: number,
  s1: Biquad,
  s2: Biquad,
  st1: BiquadState,
  st2: BiquadState,
  g: number,
  sq: Float64Array,
): void {
  const { b0: ab0, b1: ab1, b2: ab2, a1: aa1, a2: aa2 } = s1;
  const { b0: bb0, b1: bb1, b2: bb2, a1: ba1, a2: ba2 } = s2;
  let p1 = st1[0]!;
  let p2 = st1[1]!;
  let q1 = st2[0]!;
  let q2 = st2[1]!;
  for (let i = 0; i < n; i++) {
    const xi = x[start + i]!;
    const u = ab0 * xi + p1;
    p1 = ab1 * xi - aa1 * u + p2;
    p2 = ab2 * xi - aa2 * u;
    const y = bb0 * u + q1;
    q1 = bb1 * u - ba1 * y + q2;
    q2 = bb2 * u - ba2 * y;
    sq[i] = sq[i]! + g * y * y;
  }
  st1[0] = p1;
  st1[1] = p2;
  st2[0] = q1;
  st2[1] = q2;
}

function sumRange(x: Float64Array, from: number, to: number): number {
  let sum = 0;
  for (let k = from; k < to; k++) sum += x[k]!;
  return sum;
}

/** Mean-square energies z of sliding blocks of `blockSteps` 100 ms steps, one per step (complete blocks only). */
export function blockEnergies(steps: Float64Array, hop: number, blockSteps: number): Float64Array {
  const count = steps.length - blockSteps + 1;
  if (count <= 0) return new Float64Array(0);
  const out = new Float64Array(count);
  let sum = 0;
  for (let i = 0; i < blockSteps; i++) sum += steps[i]!;
  const norm = 1 / (hop * blockSteps);
  out[0] = sum * norm;
  for (let j = 1; j < count; j++) {
    sum += steps[j + blockSteps - 1]! - steps[j - 1]!;
    out[j] = Math.max(0, sum) * norm;
  }
  return out;
}

/** Gated integrated loudness (BS.1770-4 eq. 3-7) of 400 ms block energies. */
export function integratedLoudness(blocks: Float64Array): { lufs: number; relativeGateLufs: number } {
  const absGate = lufsToEnergy(ABSOLUTE_GATE_LUFS);
  let sum = 0;
  let count = 0;
  for (const z of blocks) {
    if (z > absGate) {
      sum += z;
      count++;
    }
  }
  if (count === 0) return { lufs: -Infinity, relativeGateLufs: -Infinity };
  const relativeGateLufs = energyToLufs(sum / count) + RELATIVE_GATE_LU;
  const relGate = lufsToEnergy(relativeGateLufs);
  sum = 0;
  count = 0;
  for (const z of blocks) {
    if (z > absGate && z > relGate) {
      sum += z;
      count++;
    }
  }
  return { lufs: count ? energyToLufs(sum / count) : -Infinity, relativeGateLufs };
}

/**
 * The loudness range's gating (EBU Tech 3342): the short-term block energies above the absolute gate (-70 LUFS) and
 * above the relative gate (their mean, -20 LU), sorted ascending, with that relative gate as an energy; null when
 * fewer than two pass (no range to speak of).
 */
export function rangeGating(shortTermBlocks: Float64Array): { gated: Float64Array; relativeGate: number } | null {
  const absGate = lufsToEnergy(ABSOLUTE_GATE_LUFS);
  const passed: number[] = [];
  let sum = 0;
  for (const z of shortTermBlocks) {
    if (z > absGate) {
      passed.push(z);
      sum += z;
    }
  }
  if (passed.length === 0) return null;
  const relativeGate = (sum / passed.length) * Math.pow(10, LRA_RELATIVE_GATE_LU / 10);
  const gated = Float64Array.from(passed.filter((z) => z > relativeGate)).sort();
  return gated.length < 2 ? null : { gated, relativeGate };
}

/** Loudness range (EBU Tech 3342) of short-term block energies, in LU; 0 when fewer than two blocks pass the gates. */
export function loudnessRange(shortTermBlocks: Float64Array): number {
  const gating = rangeGating(shortTermBlocks);
  if (!gating) return 0;
  const { gated } = gating;
  const low = gated[Math.floor((gated.length - 1) * 0.1 + 0.5)]!;
  const high = gated[Math.floor((gated.length - 1) * 0.95 + 0.5)]!;
  return energyToLufs(high) - energyToLufs(low);
}

export interface LoudnessResult {
  integratedLufs: number;
  /** Relative gate applied for the integrated value, LUFS. */
  relativeGateLufs: number;
  momentaryMaxLufs: number;
  shortTermMaxLufs: number;
  loudnessRangeLu: number;
  /** Short-term loudness every 100 ms (first value covers 0-3 s), LUFS. */
  shortTerm: Float64Array;
  /** Momentary loudness every 100 ms (first value covers 0-0.4 s), LUFS. */
  momentary: Float64Array;
}

function maxLufs(blocks: Float64Array): number {
  let m = 0;
  for (const z of blocks) if (z > m) m = z;
  return energyToLufs(m);
}

const toLufsSeries = (blocks: Float64Array): Float64Array => blocks.map(energyToLufs);

/** All loudness measures from the accumulated 100 ms steps. */
export function loudnessFromSteps(steps: Float64Array, hop: number): LoudnessResult {
  const momentary = blockEnergies(steps, hop, 4);
  const shortTerm = blockEnergies(steps, hop, 30);
  const { lufs, relativeGateLufs } = integratedLoudness(momentary);
  return {
    integratedLufs: lufs,
    relativeGateLufs,
    momentaryMaxLufs: maxLufs(momentary),
    shortTermMaxLufs: maxLufs(shortTerm),
    loudnessRangeLu: loudnessRange(shortTerm),
    shortTerm: toLufsSeries(shortTerm),
    momentary: toLufsSeries(momentary),
  };
}

/** Loudness of a whole planar signal in one call (mono as dual mono unless `dualMono` is false). */
export function measureLoudness(
  channels: readonly Float32Array[],
  sampleRate: number,
  dualMono = true,
): LoudnessResult {
  const acc = new LoudnessAccumulator(sampleRate, channels.length, dualMono);
  acc.add(channels, 0, channels[0]?.length ?? 0);
  return loudnessFromSteps(acc.steps(), acc.hop);
}

/** Integrated loudness only (the hot path of gain searches). */
export function integratedLufs(channels: readonly Float32Array[], sampleRate: number): number {
  const acc = new LoudnessAccumulator(sampleRate, channels.length);
  acc.add(channels, 0, channels[0]?.length ?? 0);
  return integratedLoudness(blockEnergies(acc.steps(), acc.hop, 4)).lufs;
}
