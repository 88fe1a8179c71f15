/**
 * FFT of any length for real signals: the radix-2 RealFft when the length is a power of two, Bluestein's chirp-z
 * algorithm otherwise (the DFT written as a convolution with a chirp, computed with power-of-two complex FFTs of at
 * least 2n - 1 points). MDX-Net models use STFT sizes such as 6144 and 7680. Same conventions as RealFft: forward
 * gives bins 0..n/2 unnormalised, inverse divides by n.
 */
import { RealFft } from './fft';

/** In-place iterative radix-2 complex FFT (sign -1 forward, +1 inverse without scaling). */
function complexFft(re: Float64Array, im: Float64Array, sign: number): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i]!;
      re[i] = re[j]!;
      re[j] = t;
      t = im[i]!;
      im[i] = im[j]!;
      im[j] = t;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (sign * 2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let j = 0; j < half; j++) {
        const a = i + j;
        const b = a + half;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
        const t = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = t;
      }
    }
  }
}

export class AnyFft {
  readonly size: number;
  private readonly radix2: RealFft | null;
  private readonly m: number;
  private readonly cr: Float64Array;
  private readonly ci: Float64Array;
  private readonly br: Float64Array;
  private readonly bi: Float64Array;
  private readonly ar: Float64Array;
  private readonly ai: Float64Array;

  constructor(n: number) {
    if (!Number.isInteger(n) || n < 4 || n % 2 !== 0)
      throw new RangeError(`FFT size must be an even integer >= 4: ${n}`);
    this.size = n;
    const pow2 = (n & (n - 1)) === 0;
    this.radix2 = pow2 ? new RealFft(n) : null;
    let m = 1;
    while (m < 2 * n - 1) m <<= 1;
    this.m = pow2 ? 0 : m;
    this.cr = new Float64Array(pow2 ? 0 : n);
    this.ci = new Float64Array(pow2 ? 0 : n);
    this.br = new Float64Array(pow2 ? 0 : m);
    this.bi = new Float64Array(pow2 ? 0 : m);
    this.ar = new Float64Array(pow2 ? 0 : m);
    this.ai = new Float64Array(pow2 ? 0 : m);
    if (pow2) return;
    // Chirp c[k] = exp(-i pi k^2 / n) (k^2 taken modulo 2n for accuracy); b = conj(c), wrapped, transformed once.
    for (let k = 0; k < n; k++) {
      const a = (-Math.PI * ((k * k) % (2 * n))) / n;
      this.cr[k] = Math.cos(a);
      this.ci[k] = Math.sin(a);
    }
    for (let k = 0; k < n; k++) {
      this.br[k] = this.cr[k]!;
      this.bi[k] = -this.ci[k]!;
      if (k > 0) {
        this.br[m - k] = this.cr[k]!;
        this.bi[m - k] = -this.ci[k]!;
      }
    }
    complexFft(this.br, this.bi, -1);
  }

  /** Full complex DFT of (xr, xi) (length n) into (outR, outI) by Bluestein. */
  private bluestein(
    xr: ArrayLike<number>,
    xi: ArrayLike<number> | null,
    outR: Float64Array,
    outI: Float64Array,
    bins: number,
  ): void {
    const { size: n, m, cr, ci, ar, ai, br, bi } = this;
    ar.fill(0);
    ai.fill(0);
    for (let k = 0; k < n; k++) {
      const x = xr[k]!;
      const y = xi ? xi[k]! : 0;
      ar[k] = x * cr[k]! - y * ci[k]!;
      ai[k] = x * ci[k]! + y * cr[k]!;
    }
    complexFft(ar, ai, -1);
    for (let k = 0; k < m; k++) {
      const r = ar[k]! * br[k]! - ai[k]! * bi[k]!;
      ai[k] = ar[k]! * bi[k]! + ai[k]! * br[k]!;
      ar[k] = r;
    }
    complexFft(ar, ai, 1);
    for (let k = 0; k < bins; k++) {
      const r = ar[k]! / m;
      const i = ai[k]! / m;
      outR[k] = r * cr[k]! - i * ci[k]!;
      outI[k] = r * ci[k]! + i * cr[k]!;
    }
  }

  /** Bins 0..n/2 of the real signal `input` (length n). */
  forward(input: ArrayLike<number>, re: Float64Array, im: Float64Array): void {
    if (this.radix2) {
      this.radix2.forward(input, re, im);
      return;
    }
    this.bluestein(input, null, re, im, this.size / 2 + 1);
  }

  /** Real signal (length n) from bins 0..n/2. */
  inverse(re: Float64Array, im: Float64Array, out: Float32Array | Float64Array): void {
    if (this.radix2) {
      this.radix2.inverse(re, im, out);
      return;
    }
    const n = this.size;
    // x = conj(DFT(conj(X))) / n over the full Hermitian spectrum; the result is real.
    const fr = new Float64Array(n);
    const fi = new Float64Array(n);
    for (let k = 0; k <= n / 2; k++) {
      fr[k] = re[k]!;
      fi[k] = -im[k]!;
      if (k > 0 && k < n / 2) {
        fr[n - k] = re[k]!;
        fi[n - k] = im[k]!;
      }
    }
    const yr = new Float64Array(n);
    const yi = new Float64Array(n);
    this.bluestein(fr, fi, yr, yi, n);
    for (let k = 0; k < n; k++) out[k] = yr[k]! / n;
  }
}
