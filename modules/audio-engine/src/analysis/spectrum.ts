/**
 * Long-term 1/3-octave spectrum (IEC 61260 base-10 band centres f = 10^(k/10), edges f * 10^(+-1/20)) estimated by
 * Welch's method: Hann-windowed FFT frames of 16384 samples, power-averaged over the frames that pass a gate
 * (absolute -70 dBFS, relative 20 dB below the frames' power mean, so silence and fades do not tilt the balance).
 * Band power sums the one-sided periodogram with fractional weighting of bins straddling band edges, scaled so
 * that the bands of a signal add up to its mean square: a full-scale sine reads -3.01 dB in its band.
 */
import { RealFft, addPower, hann, windowFrame } from '../dsp/fft';
import type { Tick } from '../stage/context';

/** Nominal centre frequencies of the 30 bands from 25 Hz to 20 kHz. */
export const THIRD_OCTAVE_NOMINAL = [
  25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150, 4000,
  5000, 6300, 8000, 10000, 12500, 16000, 20000,
] as const;

/** Exact base-10 centres matching THIRD_OCTAVE_NOMINAL (10^(k/10), k = 14..43). */
export const THIRD_OCTAVE_CENTRES: readonly number[] = THIRD_OCTAVE_NOMINAL.map((_, i) => Math.pow(10, (14 + i) / 10));

export interface Spectrum {
  /** Nominal band centres, Hz. */
  bandsHz: number[];
  /** Band power in dB relative to full scale mean square (-Infinity when empty or above Nyquist). */
  levelsDb: number[];
}

const FRAME = 16384;
const MAX_FRAMES = 96;

/** Bin weights per band: weights[b] is a list of [bin, fraction] pairs. */
function bandBins(sampleRate: number, size: number): Array<Array<[number, number]>> {
  const df = sampleRate / size;
  return THIRD_OCTAVE_CENTRES.map((fc) => {
    const lo = fc * Math.pow(10, -1 / 20);
    const hi = fc * Math.pow(10, 1 / 20);
    const pairs: Array<[number, number]> = [];
    const kLo = Math.max(1, Math.floor(lo / df));
    const kHi = Math.min(size / 2, Math.ceil(hi / df));
    for (let k = kLo; k <= kHi; k++) {
      const a = Math.max(lo, (k - 0.5) * df);
      const b = Math.min(hi, (k + 0.5) * df);
      if (b > a) pairs.push([k, (b - a) / df]);
    }
    return pairs;
  });
}

/** Averaged one-sided power spectrum (per bin, scaled so that bins sum to the mean square) of selected frames. */
export async function averagePowerSpectrum(
  channels: readonly Float32Array[],
  tick?: Tick,
  size = FRAME,
  maxFrames = MAX_FRAMES,
): Promise<{ power: Float64Array; frames: number }> {
  const length = channels[0]?.length ?? 0;
  const power = new Float64Array(size / 2 + 1);
  if (length === 0) return { power, frames: 0 };
  const fft = new RealFft(size);
  const win = hann(size);
  let winSq = 0;
  for (const w of win) winSq += w * w;
  const total = Math.max(1, Math.floor((length - size) / size) + 1);
  const count = Math.min(maxFrames, total);
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    starts.push(length <= size ? 0 : Math.round((i * (length - size)) / Math.max(1, count - 1)));
  }
  // Gate on frame energy first (cheap), then transform only the frames that pass.
  const energies = starts.map((s) => frameEnergy(channels, s, size) / (size * channels.length));
  const absGate = Math.pow(10, -70 / 10);
  const loud = energies.filter((e) => e > absGate);
  const mean = loud.reduce((a, b) => a + b, 0) / Math.max(1, loud.length);
  const gate = Math.max(absGate, mean / 100);
  const frame = new Float64Array(size);
  const re = new Float64Array(size / 2 + 1);
  const im = new Float64Array(size / 2 + 1);
  let used = 0;
  for (let f = 0; f < starts.length; f++) {
    if (energies[f]! <= gate) continue;
    const s = starts[f]!;
    for (const ch of channels) {
      windowFrame(ch, s, win, frame);
      fft.forward(frame, re, im);
      addPower(re, im, power);
    }
    used++;
    if (tick) await tick((f + 1) / starts.length);
  }
  if (used === 0) return { power, frames: 0 };
  const scale = 2 / (size * winSq * used * channels.length);
  for (let k = 0; k <= size / 2; k++) power[k] = power[k]! * scale * (k === 0 || k === size / 2 ? 0.5 : 1);
  return { power, frames: used };
}

// The per-sample loops are small functions of typed arrays and numbers, which V8 optimises once for every job.

/** Energy of the channels over samples [s, s + size) (the part inside the signal). */
function frameEnergy(channels: readonly Float32Array[], s: number, size: number): number {
  let e = 0;
  for (let c = 0; c < channels.length; c++) {
    const ch = channels[c]!;
    const end = Math.min(ch.length, s + size);
    for (let i = s; i < end; i++) e += ch[i]! * ch[i]!;
  }
  return e;
}

/** Integrates a per-bin power spectrum (from averagePowerSpectrum) into 1/3-octave bands. */
export function thirdOctaveBands(power: Float64Array, sampleRate: number): Spectrum {
  const size = (power.length - 1) * 2;
  const bins = bandBins(sampleRate, size);
  const levelsDb = bins.map((pairs) => {
    let p = 0;
    for (const [k, w] of pairs) p += power[k]! * w;
    return p > 0 ? 10 * Math.log10(p) : -Infinity;
  });
  return { bandsHz: [...THIRD_OCTAVE_NOMINAL], levelsDb };
}

/** Long-term 1/3-octave spectrum of a signal. */
export async function thirdOctaveSpectrum(
  channels: readonly Float32Array[],
  sampleRate: number,
  tick?: Tick,
): Promise<Spectrum> {
  const { power } = await averagePowerSpectrum(channels, tick);
  return thirdOctaveBands(power, sampleRate);
}
