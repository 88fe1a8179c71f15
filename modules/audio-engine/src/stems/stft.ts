/**
 * Short-time Fourier transform for separation: periodic Hann analysis and synthesis windows at 75 % overlap, frames
 * placed so that every input sample is covered by exactly n / hop frames (the first frame starts n - hop samples
 * before the signal). With that layout the weighted overlap-add of unmodified frames reproduces the input exactly,
 * and because the inverse is linear, spectra that sum to the mixture's spectrum give signals that sum to the mixture.
 *
 * Spectra are stored frame-major as Float32 (re and im planes of frames x bins), which is what the per-frame steps
 * (pitch tracking, Wiener filtering, the inverse) read; per-bin steps (time medians) read them with a stride.
 */
import { RealFft, hann } from '../dsp/fft';
import type { Tick } from '../stage/context';

export interface StftShape {
  /** FFT size. */
  n: number;
  hop: number;
  /** n / 2 + 1. */
  bins: number;
  frames: number;
  /** Length of the signal in samples. */
  length: number;
}

export interface Spectrogram extends StftShape {
  /** Per channel, frames x bins, frame-major. */
  re: Float32Array[];
  im: Float32Array[];
}

/** The FFT size used for separation at sample rate fs (about 93 ms: 4096 at 44.1 / 48 kHz). */
export function separationFftSize(fs: number): number {
  let n = 256;
  while (n * 2 <= 0.1 * fs) n *= 2;
  return n * 2 <= 0.1 * fs * 1.5 ? n * 2 : n;
}

export function stftShape(length: number, n: number, hop = n / 4): StftShape {
  const frames = Math.floor((length - 1 + n - hop) / hop) + 1;
  return { n, hop, bins: n / 2 + 1, frames: Math.max(1, frames), length };
}

/** First input sample of frame t. */
export const frameStart = (shape: StftShape, t: number): number => t * shape.hop - (shape.n - shape.hop);

/** Frame t of x (length samples) windowed into buf and transformed: bins 0..n/2 into fr, fi. */
function forwardFrame(
  x: Float32Array,
  shape: StftShape,
  t: number,
  fft: RealFft,
  win: Float64Array,
  buf: Float64Array,
  fr: Float64Array,
  fi: Float64Array,
): void {
  const { n, length } = shape;
  const s = frameStart(shape, t);
  for (let i = 0; i < n; i++) {
    const j = s + i;
    buf[i] = j >= 0 && j < length ? x[j]! * win[i]! : 0;
  }
  fft.forward(buf, fr, fi);
}

/** Forward STFT of each channel. */
export async function stft(channels: readonly Float32Array[], n: number, tick?: Tick): Promise<Spectrogram> {
  const length = channels[0]?.length ?? 0;
  const shape = stftShape(length, n);
  const { bins, frames } = shape;
  const fft = new RealFft(n);
  const win = hann(n);
  const buf = new Float64Array(n);
  const fr = new Float64Array(bins);
  const fi = new Float64Array(bins);
  const re: Float32Array[] = [];
  const im: Float32Array[] = [];
  for (let c = 0; c < channels.length; c++) {
    const x = channels[c]!;
    const R = new Float32Array(frames * bins);
    const I = new Float32Array(frames * bins);
    for (let t = 0; t < frames; t++) {
      forwardFrame(x, shape, t, fft, win, buf, fr, fi);
      const o = t * bins;
      for (let k = 0; k < bins; k++) {
        R[o + k] = fr[k]!;
        I[o + k] = fi[k]!;
      }
      if (tick && (t & 255) === 255) await tick((c + t / frames) / channels.length);
    }
    re.push(R);
    im.push(I);
  }
  return { ...shape, re, im };
}

/**
 * The same STFT one frame at a time, for passes that would otherwise hold the whole spectrogram (four times the
 * input's size): `load(t)` computes frame t of every channel (the values `stft` gives), the power of each bin (mean of
 * |X|^2 over the channels) and its magnitude, into buffers reused from frame to frame.
 */
export class StftFrames {
  readonly shape: StftShape;
  /** Frame t's bins per channel, as `stft` stores them (Float32). */
  readonly re: Float32Array[];
  readonly im: Float32Array[];
  readonly power: Float32Array;
  readonly mag: Float32Array;
  private readonly fft: RealFft;
  private readonly win: Float64Array;
  private readonly buf: Float64Array;
  private readonly fr: Float64Array;
  private readonly fi: Float64Array;

  constructor(
    private readonly channels: readonly Float32Array[],
    n: number,
  ) {
    this.shape = stftShape(channels[0]?.length ?? 0, n);
    const { bins } = this.shape;
    this.re = channels.map(() => new Float32Array(bins));
    this.im = channels.map(() => new Float32Array(bins));
    this.power = new Float32Array(bins);
    this.mag = new Float32Array(bins);
    this.fft = new RealFft(n);
    this.win = hann(n);
    this.buf = new Float64Array(n);
    this.fr = new Float64Array(bins);
    this.fi = new Float64Array(bins);
  }

  load(t: number): this {
    const { bins } = this.shape;
    const C = this.channels.length;
    const { power, fr, fi } = this;
    power.fill(0);
    for (let c = 0; c < C; c++) {
      forwardFrame(this.channels[c]!, this.shape, t, this.fft, this.win, this.buf, fr, fi);
      const R = this.re[c]!;
      const I = this.im[c]!;
      for (let k = 0; k < bins; k++) {
        R[k] = fr[k]!;
        I[k] = fi[k]!;
        power[k] = power[k]! + (R[k]! * R[k]! + I[k]! * I[k]!) / C;
      }
    }
    for (let k = 0; k < bins; k++) this.mag[k] = Math.sqrt(power[k]!);
    return this;
  }
}

/**
 * Inverse STFT of one channel (weighted overlap-add with the analysis window, normalised by the window's constant
 * overlap sum), added into `out` (length shape.length) when `accumulate`, written otherwise.
 */
export class InverseStft {
  private readonly fft: RealFft;
  private readonly win: Float64Array;
  private readonly fr: Float64Array;
  private readonly fi: Float64Array;
  private readonly frame: Float64Array;
  private readonly norm: number;

  constructor(private readonly shape: StftShape) {
    const { n, hop, bins } = shape;
    this.fft = new RealFft(n);
    this.win = hann(n);
    this.fr = new Float64Array(bins);
    this.fi = new Float64Array(bins);
    this.frame = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i += hop) sum += this.win[i]! ** 2;
    this.norm = 1 / sum;
  }

  /** Overlap-adds frame t (bins of re/im at offset t * bins) into out. */
  addFrame(re: ArrayLike<number>, im: ArrayLike<number>, offset: number, t: number, out: Float32Array): void {
    const { n, bins, length } = this.shape;
    const fr = this.fr;
    const fi = this.fi;
    for (let k = 0; k < bins; k++) {
      fr[k] = re[offset + k]!;
      fi[k] = im[offset + k]!;
    }
    fi[0] = 0;
    fi[bins - 1] = 0;
    this.fft.inverse(fr, fi, this.frame);
    const s = frameStart(this.shape, t);
    const i0 = Math.max(0, -s);
    const i1 = Math.min(n, length - s);
    const w = this.win;
    const g = this.norm;
    const f = this.frame;
    for (let i = i0; i < i1; i++) out[s + i] = out[s + i]! + f[i]! * w[i]! * g;
  }

  /** The signal of a whole spectrogram channel. */
  async run(re: Float32Array, im: Float32Array, tick?: Tick): Promise<Float32Array> {
    const out = new Float32Array(this.shape.length);
    const { frames, bins } = this.shape;
    for (let t = 0; t < frames; t++) {
      this.addFrame(re, im, t * bins, t, out);
      if (tick && (t & 255) === 255) await tick(t / frames);
    }
    return out;
  }
}
