/**
 * Kaiser-windowed sinc kernels, shared by the true-peak interpolator and the resampler.
 * Kaiser's design rules (Oppenheim & Schafer, eq. 7.62-7.63): for a stopband attenuation of A dB,
 * beta = 0.1102 (A - 8.7) when A > 50, 0.5842 (A - 21)^0.4 + 0.07886 (A - 21) when 21 <= A <= 50, else 0,
 * and the length M ~ (A - 8) / (2.285 * dw) for a transition width dw in radians per sample.
 */

/** Zeroth-order modified Bessel function of the first kind (power series). */
export function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 64; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

export function kaiserBeta(attenuationDb: number): number {
  const a = attenuationDb;
  if (a > 50) return 0.1102 * (a - 8.7);
  if (a >= 21) return 0.5842 * Math.pow(a - 21, 0.4) + 0.07886 * (a - 21);
  return 0;
}

/** Kaiser window value at t in [-halfWidth, halfWidth] (0 outside). */
export function kaiser(t: number, halfWidth: number, beta: number, i0Beta = besselI0(beta)): number {
  const r = t / halfWidth;
  if (r <= -1 || r >= 1) return 0;
  return besselI0(beta * Math.sqrt(1 - r * r)) / i0Beta;
}

export function sinc(x: number): number {
  if (Math.abs(x) < 1e-12) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/**
 * Low-pass interpolation kernel in units of input samples: h(t) = 2 fc sinc(2 fc t) w(t), fc in cycles per input
 * sample (0.5 = input Nyquist), non-zero for |t| < taps / 2.
 */
export function windowedSinc(t: number, fc: number, taps: number, beta: number, i0Beta: number): number {
  return 2 * fc * sinc(2 * fc * t) * kaiser(t, taps / 2, beta, i0Beta);
}
