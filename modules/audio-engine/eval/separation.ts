/**
 * Separation measures: SDR as the Music Demixing Challenge 2021 defines it (10 log10 of the reference energy over the
 * error energy, all channels and samples together; no distortion filter, unlike BSS Eval v4), the mixture used as the
 * estimate (the floor any separator should beat) and oracle ideal ratio masks (each source's power share of every
 * time-frequency bin, computed from the true stems on the separator's own STFT: the ceiling of mask-based separation
 * at that resolution).
 */
import type { Pcm } from '../src/pcm';
import { InverseStft, separationFftSize, stft } from '../src/stems/stft';

/** SDR of `estimate` against `reference`, dB (+Infinity for a perfect estimate, NaN for a silent reference). */
export function sdr(estimate: Pcm, reference: Pcm): number {
  let num = 0;
  let den = 0;
  for (let c = 0; c < reference.channels.length; c++) {
    const r = reference.channels[c]!;
    const e = estimate.channels[Math.min(c, estimate.channels.length - 1)]!;
    const n = Math.min(r.length, e.length);
    for (let i = 0; i < n; i++) {
      num += r[i]! * r[i]!;
      den += (r[i]! - e[i]!) ** 2;
    }
    for (let i = n; i < r.length; i++) {
      num += r[i]! * r[i]!;
      den += r[i]! * r[i]!;
    }
  }
  if (num === 0) return NaN;
  return den === 0 ? Infinity : 10 * Math.log10(num / den);
}

/** Mixture consistency, as the stems job measures it. */
export { consistencyDb } from '../src/stems/stems';

/** Oracle ideal-ratio-mask estimates of every source (power masks, per channel), on the separator's STFT. */
export async function oracleIrm(mixture: Pcm, sources: readonly Pcm[]): Promise<Pcm[]> {
  const fs = mixture.sampleRate;
  const n = separationFftSize(fs);
  const C = mixture.channels.length;
  const mix = await stft(mixture.channels, n);
  const specs = [];
  for (const s of sources) specs.push(await stft(s.channels, n));
  const inv = new InverseStft(mix);
  const cells = mix.frames * mix.bins;
  const out: Pcm[] = [];
  for (let j = 0; j < sources.length; j++) {
    const channels: Float32Array[] = [];
    for (let c = 0; c < C; c++) {
      const re = new Float32Array(cells);
      const im = new Float32Array(cells);
      for (let i = 0; i < cells; i++) {
        let total = 0;
        for (const s of specs) total += s.re[c]![i]! ** 2 + s.im[c]![i]! ** 2;
        const own = specs[j]!.re[c]![i]! ** 2 + specs[j]!.im[c]![i]! ** 2;
        const g = total > 0 ? own / total : 1 / sources.length;
        re[i] = g * mix.re[c]![i]!;
        im[i] = g * mix.im[c]![i]!;
      }
      channels.push(await inv.run(re, im));
    }
    out.push({ sampleRate: fs, channels });
  }
  return out;
}
