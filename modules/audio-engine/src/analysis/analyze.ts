/**
 * The full analysis of a signal: BS.1770-4 / R 128 loudness (integrated, momentary and short-term maxima, LRA),
 * true peak (4x oversampled) and sample peak, RMS and crest factor, 1/3-octave spectrum, stereo correlation and
 * width, and clipping. One pass in ~1 s chunks (ticking progress), then the spectrum.
 */
import { truePeakDetector } from '../dsp/true-peak';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';
import { LoudnessAccumulator, loudnessFromSteps } from './loudness';
import { type Spectrum, thirdOctaveSpectrum } from './spectrum';

export interface StereoImage {
  /** Pearson correlation of left and right at zero lag (+1 mono, 0 unrelated, -1 out of phase). */
  correlation: number;
  /** Side energy relative to mid energy, dB (M = (L+R)/2, S = (L-R)/2); -Infinity for dual mono, +Infinity for L = -R. */
  sideToMidDb: number;
  /** Left energy relative to right energy, dB. */
  balanceDb: number;
}

export interface AnalysisReport {
  durationSec: number;
  sampleRate: number;
  channels: number;
  integratedLufs: number;
  momentaryMaxLufs: number;
  shortTermMaxLufs: number;
  loudnessRangeLu: number;
  truePeakDbtp: number;
  truePeakPerChannelDbtp: number[];
  samplePeakDbfs: number;
  rmsDbfs: number;
  /** Sample peak to RMS ratio, dB. */
  crestFactorDb: number;
  /** Peak-to-loudness ratio: true peak minus integrated loudness, dB. */
  plrDb: number;
  spectrum: Spectrum;
  /** Null for mono. */
  stereo: StereoImage | null;
  /** Samples within 0.01 dB of full scale in runs of 3 or more (a sign of clipping). */
  clippedSamples: number;
  /** Short-term loudness once per second (3 s windows ending at 3 s, 4 s, ...), LUFS. */
  shortTermCurveLufs: number[];
}

const toDb = (x: number): number => (x > 0 ? 20 * Math.log10(x) : -Infinity);

/** Side over mid energy in dB: -Infinity for dual mono, +Infinity for channels in exact opposition. */
function sideToMid(mid: number, side: number): number {
  if (side <= 1e-20 * mid) return -Infinity;
  if (mid <= 1e-20 * side) return Infinity;
  return 10 * Math.log10(side / mid);
}
const CHUNK = 65536;

/** Running sample statistics of one channel. */
class SampleStats {
  peak = 0;
  energy = 0;
  /** Samples in the current run at full scale. */
  clipRun = 0;
  /** Samples counted as clipped (runs of 3 or more). */
  clipped = 0;
}

/**
 * Adds samples [start, end) of x to `stats` (continuing the previous chunk). A small function of typed arrays and
 * numbers, so V8 optimises it once and keeps it (in analyzePcm's own loop it ran partly unoptimised in every job).
 */
function scanSamples(x: Float32Array, start: number, end: number, clipLevel: number, stats: SampleStats): void {
  let peak = stats.peak;
  let e = 0;
  let run = stats.clipRun;
  let clipped = stats.clipped;
  for (let i = start; i < end; i++) {
    const v = x[i]!;
    const a = v < 0 ? -v : v;
    if (a > peak) peak = a;
    e += v * v;
    if (a >= clipLevel) {
      run++;
      if (run === 3) clipped += 3;
      else if (run > 3) clipped++;
    } else run = 0;
  }
  stats.peak = peak;
  stats.energy = stats.energy + e;
  stats.clipRun = run;
  stats.clipped = clipped;
}

/** Sum of l[i] r[i] over [start, end). */
function dot(l: Float32Array, r: Float32Array, start: number, end: number): number {
  let s = 0;
  for (let i = start; i < end; i++) s += l[i]! * r[i]!;
  return s;
}

export interface AnalyzeOptions {
  tick?: Tick;
  /** Skip the spectrum (cheaper; used for intermediate checks). */
  spectrum?: boolean;
  /** True peak per channel (dBTP) already measured by the caller; skips the oversampling pass. */
  truePeaksDb?: number[];
}

/** Analyses a signal. Silence gives -Infinity loudness and peaks (serialised as null in JSON). */
export async function analyzePcm(pcm: Pcm, options: AnalyzeOptions = {}): Promise<AnalysisReport> {
  const { tick } = options;
  const n = frameCount(pcm);
  const chs = pcm.channels;
  const acc = new LoudnessAccumulator(pcm.sampleRate, chs.length);
  const tp = truePeakDetector();
  const truePeaks = chs.map(() => 0);
  const stats = chs.map(() => new SampleStats());
  let cross = 0;
  const clipLevel = Math.pow(10, -0.01 / 20);
  const withSpectrum = options.spectrum !== false;
  const known = options.truePeaksDb?.length === chs.length ? options.truePeaksDb : null;
  if (known) known.forEach((db, c) => (truePeaks[c] = Math.pow(10, db / 20)));
  const loopShare = withSpectrum ? 0.8 : 1;
  for (let start = 0; start < n; start += CHUNK) {
    const end = Math.min(n, start + CHUNK);
    acc.add(chs, start, end);
    for (let c = 0; c < chs.length; c++) {
      scanSamples(chs[c]!, start, end, clipLevel, stats[c]!);
      if (!known) truePeaks[c] = tp.maxAbs(chs[c]!, start, end, truePeaks[c]);
    }
    if (chs.length === 2) cross += dot(chs[0]!, chs[1]!, start, end);
    if (tick) await tick((loopShare * end) / n);
  }
  const samplePeaks = stats.map((st) => st.peak);
  const energy = stats.map((st) => st.energy);
  const clipped = stats.reduce((a, st) => a + st.clipped, 0);
  const loud = loudnessFromSteps(acc.steps(), acc.hop);
  const spectrum = withSpectrum
    ? await thirdOctaveSpectrum(chs, pcm.sampleRate, tick ? (f) => tick(loopShare + (1 - loopShare) * f) : undefined)
    : { bandsHz: [], levelsDb: [] };
  const totalEnergy = energy.reduce((a, b) => a + b, 0);
  const meanSquare = n > 0 ? totalEnergy / (n * chs.length) : 0;
  const samplePeak = Math.max(0, ...samplePeaks);
  const truePeak = Math.max(0, ...truePeaks);
  let stereo: StereoImage | null = null;
  if (chs.length === 2) {
    const el = energy[0]!;
    const er = energy[1]!;
    const mid = (el + er + 2 * cross) / 4;
    const side = (el + er - 2 * cross) / 4;
    stereo = {
      correlation: el > 0 && er > 0 ? cross / Math.sqrt(el * er) : 1,
      sideToMidDb: sideToMid(mid, side),
      balanceDb: er > 0 && el > 0 ? 10 * Math.log10(el / er) : 0,
    };
  }
  const curve: number[] = [];
  for (let i = 0; i < loud.shortTerm.length; i += 10) curve.push(Math.round(loud.shortTerm[i]! * 100) / 100);
  const rmsDbfs = 10 * Math.log10(meanSquare || 0);
  return {
    durationSec: n / pcm.sampleRate,
    sampleRate: pcm.sampleRate,
    channels: chs.length,
    integratedLufs: loud.integratedLufs,
    momentaryMaxLufs: loud.momentaryMaxLufs,
    shortTermMaxLufs: loud.shortTermMaxLufs,
    loudnessRangeLu: loud.loudnessRangeLu,
    truePeakDbtp: toDb(truePeak),
    truePeakPerChannelDbtp: truePeaks.map(toDb),
    samplePeakDbfs: toDb(samplePeak),
    rmsDbfs,
    crestFactorDb: toDb(samplePeak) - rmsDbfs,
    plrDb: toDb(truePeak) - loud.integratedLufs,
    spectrum,
    stereo,
    clippedSamples: clipped,
    shortTermCurveLufs: curve,
  };
}
