/**
 * Radix-2 FFT for real signals: an n/2-point complex FFT of the even/odd samples packed as re/im, then the standard
 * split step X[k] = E[k] + W^k O[k] with E, O recovered from Z[k] and conj(Z[n/2-k]) (W = e^{-2 pi i / n}).
 * Forward is unnormalised; inverse divides by n, so inverse(forward(x)) = x.
 */
export class RealFft {
  readonly size: number;
  private readonly half: number;
  private readonly rev: Uint32Array;
  private readonly tw: Float64Array;
  private readonly wr: Float64Array;
  private readonly wi: Float64Array;
  private readonly zr: Float64Array;
  private readonly zi: Float64Array;

  constructor(size: number) {
    if (size < 4 || (size & (size - 1)) !== 0) throw new RangeError(`FFT size must be a power of two >= 4: ${size}`);
    this.size = size;
    const h = size / 2;
    this.half = h;
    const bits = Math.log2(h);
    this.rev = new Uint32Array(h);
    for (let i = 0; i < h; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
    this.tw = new Float64Array(2 * h);
    for (let len = 2; len <= h; len <<= 1) {
      const half = len >> 1;
      for (let j = 0; j < half; j++) {
        this.tw[2 * (half + j)] = Math.cos((2 * Math.PI * j) / len);
        this.tw[2 * (half + j) + 1] = -Math.sin((2 * Math.PI * j) / len);
      }
    }
    this.wr = new Float64Array(h + 1);
    this.wi = new Float64Array(h + 1);
    for (let k = 0; k <= h; k++) {
      this.wr[k] = Math.cos((2 * Math.PI * k) / size);
      this.wi[k] = -Math.sin((2 * Math.PI * k) / size);
    }
    this.zr = new Float64Array(h);
    this.zi = new Float64Array(h);
  }

  /**
   * In-place forward complex FFT of size n/2 on (zr, zi): bit reversal, then radix-2 stages walking each group
   * contiguously with the stage's twiddles stored contiguously (tw[2 (half + j)] = cos, sin of -2 pi j / len).
   */
  private complex(): void {
    const h = this.half;
    const re = this.zr;
    const im = this.zi;
    const rev = this.rev;
    for (let i = 0; i < h; i++) {
      const j = rev[i]!;
      if (j > i) {
        let t = re[i]!;
        re[i] = re[j]!;
        re[j] = t;
        t = im[i]!;
        im[i] = im[j]!;
        im[j] = t;
      }
    }
    const tw = this.tw;
    let first = 2;
    if (h >= 4) {
      // The first two radix-2 stages (lengths 2 and 4) fused: their twiddles are 1 and -i, so no multiplications.
      for (let i = 0; i < h; i += 4) {
        const r0 = re[i]!;
        const i0 = im[i]!;
        const r1 = re[i + 1]!;
        const i1 = im[i + 1]!;
        const r2 = re[i + 2]!;
        const i2 = im[i + 2]!;
        const r3 = re[i + 3]!;
        const i3 = im[i + 3]!;
        const p0r = r0 + r1;
        const p0i = i0 + i1;
        const p1r = r0 - r1;
        const p1i = i0 - i1;
        const p2r = r2 + r3;
        const p2i = i2 + i3;
        const p3r = r2 - r3;
        const p3i = i2 - i3;
        re[i] = p0r + p2r;
        im[i] = p0i + p2i;
        re[i + 2] = p0r - p2r;
        im[i + 2] = p0i - p2i;
        // (-i) * p3 = p3i - i p3r
        re[i + 1] = p1r + p3i;
        im[i + 1] = p1i - p3r;
        re[i + 3] = p1r - p3i;
        im[i + 3] = p1i + p3r;
      }
      first = 8;
    }
    for (let len = first; len <= h; len <<= 1) {
      const half = len >> 1;
      for (let i = 0; i < h; i += len) {
        for (let j = 0; j < half; j++) {
          const cr = tw[2 * (half + j)]!;
          const ci = tw[2 * (half + j) + 1]!;
          const a = i + j;
          const b = a + half;
          const rb = re[b]!;
          const ib = im[b]!;
          const xr = rb * cr - ib * ci;
          const xi = rb * ci + ib * cr;
          const ra = re[a]!;
          const ia = im[a]!;
          re[b] = ra - xr;
          im[b] = ia - xi;
          re[a] = ra + xr;
          im[a] = ia + xi;
        }
      }
    }
  }

  /** Spectrum bins 0..n/2 of the real signal `input` (length n) into re/im (length n/2 + 1). */
  forward(input: ArrayLike<number>, re: Float64Array, im: Float64Array): void {
    const h = this.half;
    const zr = this.zr;
    const zi = this.zi;
    for (let k = 0; k < h; k++) {
      zr[k] = input[2 * k]!;
      zi[k] = input[2 * k + 1]!;
    }
    this.complex();
    for (let k = 0; k <= h; k++) {
      const a = k === h ? 0 : k;
      const b = k === 0 ? 0 : h - k;
      const er = (zr[a]! + zr[b]!) / 2;
      const ei = (zi[a]! - zi[b]!) / 2;
      const or = (zi[a]! + zi[b]!) / 2;
      const oi = -(zr[a]! - zr[b]!) / 2;
      const wr = this.wr[k]!;
      const wi = this.wi[k]!;
      re[k] = er + wr * or - wi * oi;
      im[k] = ei + wr * oi + wi * or;
    }
  }

  /** Real signal (length n) from bins 0..n/2; inverse(forward(x)) reproduces x. */
  inverse(re: Float64Array, im: Float64Array, out: Float32Array | Float64Array): void {
    const h = this.half;
    const zr = this.zr;
    const zi = this.zi;
    for (let k = 0; k < h; k++) {
      const b = h - k;
      const er = (re[k]! + re[b]!) / 2;
      const ei = (im[k]! - im[b]!) / 2;
      const dr = (re[k]! - re[b]!) / 2;
      const di = (im[k]! + im[b]!) / 2;
      // O[k] = D[k] / W^k = D[k] * conj(W^k)
      const wr = this.wr[k]!;
      const wi = -this.wi[k]!;
      const or = dr * wr - di * wi;
      const oi = dr * wi + di * wr;
      // Inverse transform as conj(FFT(conj(Z))): store conj(Z) here, conjugate on the way out.
      zr[k] = er - oi;
      zi[k] = -(ei + or);
    }
    this.complex();
    const scale = 1 / h;
    for (let k = 0; k < h; k++) {
      out[2 * k] = zr[k]! * scale;
      out[2 * k + 1] = -zi[k]! * scale;
    }
  }
}

/** Periodic Hann window of length n (sums to a constant at 50% overlap, its square at 75%). */
export function hann(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  return w;
}

// Frame helpers shared by every short-time analysis. Small functions of typed arrays and numbers: V8 optimises each
// once and keeps it for every job (written inline in the stages' large functions, they ran partly unoptimised).

/** The frame of x starting at sample s, windowed, into buf (zeros outside x; no bounds test inside it). */
export function windowFrame(x: Float32Array, s: number, win: Float64Array, buf: Float64Array): void {
  const size = buf.length;
  const n = x.length;
  if (s >= 0 && s + size <= n) {
    for (let i = 0; i < size; i++) buf[i] = x[s + i]! * win[i]!;
    return;
  }
  for (let i = 0; i < size; i++) {
    const k = s + i;
    buf[i] = k >= 0 && k < n ? x[k]! * win[i]! : 0;
  }
}

/** out[k] += |X[k]|^2 / divisor, for every bin of out. */
export function addPower(re: Float64Array, im: Float64Array, out: Float64Array, divisor = 1): void {
  for (let k = 0; k < out.length; k++) out[k] = out[k]! + (re[k]! * re[k]! + im[k]! * im[k]!) / divisor;
}
