/**
 * Predominant-pitch tracking for the vocal mask: harmonic summation over a magnitude spectrogram (the salience of a
 * candidate f0 is the weighted sum of the spectral peaks at its harmonics, after Klapuri, "Multiple fundamental
 * frequency estimation by summing harmonic amplitudes", ISMIR 2006), a Viterbi path through the candidates that
 * penalises pitch jumps (so the track follows one voice rather than hopping between instruments), an optional
 * octave check (a subharmonic of the voice, helped by other sources' partials between the voice's, can win the sum),
 * and a voicing decision from the share of the frame's energy the harmonic series explains (a sung note explains most
 * of the centre-panned pitched energy around it; a chord or silence does not).
 */
import type { Tick } from '../stage/context';

export interface PitchOptions {
  sampleRate: number;
  fftSize: number;
  bins: number;
  frames: number;
  /** Row length of `mag` (default `bins`): a salience that keeps only the first `pitchRowBins(o)` bins of each frame. */
  stride?: number;
  fminHz: number;
  fmaxHz: number;
  /** Highest harmonic frequency summed, Hz. */
  maxHarmonicHz: number;
  /** Candidate spacing, cents. */
  stepCents?: number;
  /** Weight of harmonic h is decay^(h-1). */
  decay?: number;
  /** Viterbi cost per semitone of jump (in units of log salience). */
  jumpCost?: number;
  /** Minimum share of energy the harmonic series must explain to count as voiced. */
  voicingThreshold?: number;
  /** Frames quieter than this relative to the loudest frame (dB) are unvoiced. */
  floorDb?: number;
  /** Frames whose path salience is this far below the 95th percentile of the song's (dB) are unvoiced. */
  salienceFloorDb?: number;
  /**
   * Octave check: when the odd harmonics of the chosen f0 carry less than this share of the amplitude its even ones
   * carry, the series is really that of 2 f0 (a subharmonic won the sum with help from other sources between the
   * partials) and the octave above is taken. 0 disables.
   */
  octaveOddRatio?: number;
}

export interface PitchTrack {
  /** f0 per frame in Hz, 0 where unvoiced. */
  f0: Float32Array;
  /** Share of the frame's energy (fminHz..maxHarmonicHz) on the harmonic series, per frame. */
  harmonicShare: Float32Array;
  /** Salience of the chosen candidate per frame (before the voicing decision). */
  salience: Float32Array;
  /** Candidate f0 per frame before the voicing decision, Hz. */
  path: Float32Array;
}

/** The candidates of `o` and, per candidate and harmonic, the bin range searched for the peak and the weight. */
function harmonicRanges(o: PitchOptions) {
  const { sampleRate: fs, fftSize: n, bins } = o;
  const step = o.stepCents ?? 20;
  const decay = o.decay ?? 0.85;
  const binHz = fs / n;
  const count = Math.floor((1200 * Math.log2(o.fmaxHz / o.fminHz)) / step) + 1;
  const cand = Float64Array.from({ length: count }, (_, c) => o.fminHz * Math.pow(2, (c * step) / 1200));
  const lo: number[][] = [];
  const hi: number[][] = [];
  const wt: number[][] = [];
  for (let c = 0; c < count; c++) {
    const l: number[] = [];
    const h: number[] = [];
    const w: number[] = [];
    for (let k = 1; k * cand[c]! <= o.maxHarmonicHz; k++) {
      const centre = (k * cand[c]!) / binHz;
      const tol = Math.max(1, centre * 0.012);
      l.push(Math.max(1, Math.round(centre - tol)));
      h.push(Math.min(bins - 1, Math.round(centre + tol)));
      w.push(Math.pow(decay, k - 1));
    }
    lo.push(l);
    hi.push(h);
    wt.push(w);
  }
  const kMin = Math.max(1, Math.floor(o.fminHz / binHz));
  const kMax = Math.min(bins - 1, Math.ceil(o.maxHarmonicHz / binHz));
  return { step, count, cand, lo, hi, wt, kMin, kMax };
}

/** How many leading bins of each frame `trackPitch` reads: the rest of a salience row need not be kept. */
export function pitchRowBins(o: Omit<PitchOptions, 'frames'>): number {
  const { kMax, hi } = harmonicRanges({ ...o, frames: 0 });
  let top = kMax;
  for (const h of hi) for (const k of h) top = Math.max(top, k);
  return top + 1;
}

/** Tracks the predominant pitch of `mag` (frames x bins, frame-major; rows of `stride` values when given). */
export async function trackPitch(mag: Float32Array, o: PitchOptions, tick?: Tick): Promise<PitchTrack> {
  const { bins, frames } = o;
  const stride = o.stride ?? bins;
  const jumpCost = o.jumpCost ?? 0.35;
  const { step, count, cand, lo, hi, wt, kMin, kMax } = harmonicRanges(o);
  const sal = new Float32Array(frames * count);
  const energy = new Float64Array(frames);
  for (let t = 0; t < frames; t++) {
    const off = t * stride;
    let e = 0;
    for (let k = kMin; k <= kMax; k++) e += mag[off + k]! * mag[off + k]!;
    energy[t] = e;
    const so = t * count;
    for (let c = 0; c < count; c++) {
      const l = lo[c]!;
      const h = hi[c]!;
      const w = wt[c]!;
      let s = 0;
      for (let q = 0; q < l.length; q++) {
        let m = 0;
        for (let k = l[q]!; k <= h[q]!; k++) if (mag[off + k]! > m) m = mag[off + k]!;
        s += w[q]! * m;
      }
      sal[so + c] = s;
    }
    if (tick && (t & 511) === 511) await tick((0.7 * t) / frames);
  }
  // Viterbi over candidates: score = log(salience / frame max), transition cost proportional to the jump.
  const perSemitone = 100 / step;
  const maxJump = Math.round(12 * perSemitone);
  const prev = new Float64Array(count);
  const cur = new Float64Array(count);
  const back = new Int16Array(frames * count);
  const emission = (t: number, c: number, max: number) =>
    Math.log((sal[t * count + c]! + 1e-12) / (max + 1e-12) + 1e-3);
  const frameMax = (t: number) => {
    let m = 0;
    for (let c = 0; c < count; c++) if (sal[t * count + c]! > m) m = sal[t * count + c]!;
    return m;
  };
  const m0 = frameMax(0);
  for (let c = 0; c < count; c++) prev[c] = emission(0, c, m0);
  for (let t = 1; t < frames; t++) {
    const m = frameMax(t);
    for (let c = 0; c < count; c++) {
      let best = -Infinity;
      let arg = c;
      const a = Math.max(0, c - maxJump);
      const b = Math.min(count - 1, c + maxJump);
      for (let p = a; p <= b; p++) {
        const v = prev[p]! - (jumpCost * Math.abs(c - p)) / perSemitone;
        if (v > best) {
          best = v;
          arg = p;
        }
      }
      cur[c] = best + emission(t, c, m);
      back[t * count + c] = arg;
    }
    // Normalise to keep the scores bounded.
    let top = -Infinity;
    for (let c = 0; c < count; c++) if (cur[c]! > top) top = cur[c]!;
    for (let c = 0; c < count; c++) prev[c] = cur[c]! - top;
    if (tick && (t & 511) === 511) await tick(0.7 + (0.3 * t) / frames);
  }
  const path = new Int32Array(frames);
  let arg = 0;
  for (let c = 1; c < count; c++) if (prev[c]! > prev[arg]!) arg = c;
  for (let t = frames - 1; t >= 0; t--) {
    path[t] = arg;
    if (t > 0) arg = back[t * count + arg]!;
  }
  // Octave check on the path (see octaveOddRatio).
  const oddRatio = o.octaveOddRatio ?? 0;
  const octave = Math.round(1200 / step);
  if (oddRatio > 0) {
    for (let t = 0; t < frames; t++) {
      const off = t * stride;
      for (;;) {
        const c = path[t]!;
        if (c + octave >= count) break;
        const l = lo[c]!;
        const h = hi[c]!;
        let odd = 0;
        let even = 0;
        for (let q = 0; q < l.length; q++) {
          let m = 0;
          for (let k = l[q]!; k <= h[q]!; k++) if (mag[off + k]! > m) m = mag[off + k]!;
          if (q % 2 === 0) odd += wt[c]![q]! * m;
          else even += wt[c]![q]! * m;
        }
        if (even > 0 && odd < oddRatio * even) path[t] = c + octave;
        else break;
      }
    }
  }
  // Voicing: harmonic share of the energy and a floor relative to the loudest frame.
  let maxE = 0;
  for (let t = 0; t < frames; t++) if (energy[t]! > maxE) maxE = energy[t]!;
  const floor = maxE * Math.pow(10, (o.floorDb ?? -45) / 10);
  const threshold = o.voicingThreshold ?? 0.35;
  const f0 = new Float32Array(frames);
  const share = new Float32Array(frames);
  const pathSal = new Float32Array(frames);
  const pathF0 = new Float32Array(frames);
  for (let t = 0; t < frames; t++) {
    const c = path[t]!;
    pathSal[t] = sal[t * count + c]!;
    pathF0[t] = cand[c]!;
    const off = t * stride;
    let e = 0;
    const l = lo[c]!;
    const h = hi[c]!;
    for (let q = 0; q < l.length; q++) {
      // Overlapping ranges of neighbouring harmonics are counted once.
      const start = q > 0 ? Math.max(l[q]!, h[q - 1]! + 1) : l[q]!;
      for (let k = start; k <= h[q]!; k++) e += mag[off + k]! * mag[off + k]!;
    }
    share[t] = energy[t]! > 0 ? e / energy[t]! : 0;
    f0[t] = energy[t]! > floor && share[t]! >= threshold ? cand[c]! : 0;
  }
  if (o.salienceFloorDb !== undefined) {
    const sorted = Float32Array.from(pathSal).sort();
    const p95 = sorted[Math.floor(0.95 * (sorted.length - 1))] ?? 0;
    const min = p95 * Math.pow(10, o.salienceFloorDb / 20);
    for (let t = 0; t < frames; t++) if (pathSal[t]! < min) f0[t] = 0;
  }
  cleanVoicing(f0, 4, 2);
  return { f0, harmonicShare: share, salience: pathSal, path: pathF0 };
}

/** Removes voiced runs shorter than minRun frames and fills unvoiced gaps of at most maxGap frames. */
function cleanVoicing(f0: Float32Array, minRun: number, maxGap: number): void {
  const n = f0.length;
  // Fill short gaps with the previous frame's pitch.
  for (let t = 1; t < n; t++) {
    if (f0[t] === 0 && f0[t - 1]! > 0) {
      let e = t;
      while (e < n && f0[e] === 0) e++;
      if (e < n && e - t <= maxGap) for (let k = t; k < e; k++) f0[k] = f0[t - 1]!;
      t = e;
    }
  }
  for (let t = 0; t < n;) {
    if (f0[t]! > 0) {
      let e = t;
      while (e < n && f0[e]! > 0) e++;
      if (e - t < minRun) f0.fill(0, t, e);
      t = e;
    } else t++;
  }
}
