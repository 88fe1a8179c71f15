/**
 * Formant synthesis of a voice (for the demo material): a glottal source made of harmonics with a -8 to -12 dB/octave
 * tilt, shaped by a cascade of five vocal-tract resonances (formants) whose frequencies move between vowels, plus
 * aspiration noise through the same resonances. Harmonics are generated with the Chebyshev recurrence
 * sin((h+1)p) = 2 cos(p) sin(hp) - sin((h-1)p), so one sine and one cosine per sample drive them all; their
 * amplitudes (the formant envelope at h f0) are refreshed every 32 samples. Formant values are the classic averages
 * of Peterson & Barney (1952), raised by 10-15 % for the higher voice.
 */
import { Random } from '../dsp/random';

export type Vowel = 'a' | 'e' | 'i' | 'o' | 'u';

/** F1..F3 for a mid-range voice (F4, F5 fixed), Hz. */
const FORMANTS: Record<Vowel, [number, number, number]> = {
  a: [800, 1200, 2600],
  e: [560, 1900, 2600],
  i: [320, 2400, 3000],
  o: [520, 900, 2500],
  u: [350, 870, 2400],
};
const BANDWIDTHS = [80, 100, 140, 200, 260];

/** Magnitude of the formant cascade at f (each resonance unity at 0 Hz), plus the singer's formant if asked. */
function envelope(f: number, formants: readonly number[], bandwidthScale: number, singer: number): number {
  let g = 1;
  for (let k = 0; k < formants.length; k++) {
    const F = formants[k]!;
    const B = BANDWIDTHS[k]! * bandwidthScale;
    g *= (F * F) / Math.sqrt((F * F - f * f) ** 2 + (B * f) ** 2);
  }
  // The singer's formant: a cluster of F3-F5 near 3 kHz that lets a trained voice carry over a band.
  if (singer > 0) g *= 1 + singer * Math.exp(-0.5 * ((f - 3000) / 400) ** 2);
  return g;
}

export interface VoiceSegment {
  /** Start and end in samples. */
  start: number;
  end: number;
  /** f0 at the start and the end (a glide between them), Hz. */
  f0From: number;
  f0To: number;
  vowel: Vowel;
  /** Vowel at the end (the formants move toward it). */
  vowelTo?: Vowel;
  amplitude: number;
  /** Consonant onset: a short noise burst (fricative or plosive). */
  onset?: 'fricative' | 'plosive' | null;
  /** Vibrato depth in cents (singing). */
  vibratoCents?: number;
}

export interface VoiceOptions {
  sampleRate: number;
  /** Formant scale (1 = mid-range, 1.12 = higher voice). */
  formantScale: number;
  /** Breathiness: aspiration level relative to the harmonics. */
  breath: number;
  seed: number;
  attackSec?: number;
  releaseSec?: number;
  /** Source spectral tilt: harmonic h at 1 / h^tilt (2 = -12 dB/octave, a soft voice; 1.4 = a bright, projected one). */
  tilt?: number;
  /** Formant bandwidths scale (wider for singing at high pitch, where the fundamental would otherwise dominate). */
  bandwidthScale?: number;
  /** Singer's-formant gain (linear boost near 3 kHz, 0 for speech). */
  singersFormant?: number;
}

/** Renders voice segments into `out` (added). */
export function renderVoice(segments: readonly VoiceSegment[], out: Float32Array, o: VoiceOptions): void {
  const fs = o.sampleRate;
  const rng = new Random(o.seed);
  const nyq = Math.min(5500, 0.45 * fs);
  const attack = o.attackSec ?? 0.04;
  const release = o.releaseSec ?? 0.07;
  const amps = new Float64Array(80);
  const bw = o.bandwidthScale ?? 1;
  const singer = o.singersFormant ?? 0;
  let phase = 0;
  // Resonator state for the noise (one 2-pole section per formant, re-tuned per block).
  const ns = new Float64Array(10);
  let vibPhase = rng.next() * 2 * Math.PI;
  for (const seg of segments) {
    const len = seg.end - seg.start;
    if (len <= 0) continue;
    const fromF = FORMANTS[seg.vowel];
    const toF = FORMANTS[seg.vowelTo ?? seg.vowel];
    let coefs: number[] = [];
    for (let i = 0; i < len; i++) {
      const t = i / fs;
      const u = i / len;
      if ((i & 31) === 0) {
        const f0 = seg.f0From * Math.pow(seg.f0To / seg.f0From, Math.min(1, u * 4));
        const formants = [0, 1, 2].map((k) => (fromF[k]! + (toF[k]! - fromF[k]!) * u) * o.formantScale);
        formants.push(3500 * o.formantScale, 4500 * o.formantScale);
        const H = Math.min(amps.length - 1, Math.floor(nyq / f0));
        for (let h = 1; h <= H; h++) amps[h] = envelope(h * f0, formants, bw, singer) / Math.pow(h, o.tilt ?? 2);
        for (let h = H + 1; h < amps.length; h++) amps[h] = 0;
        // Normalise so the level does not depend on the pitch or the vowel.
        let e = 0;
        for (let h = 1; h <= H; h++) e += amps[h]! * amps[h]!;
        const g = 1 / Math.sqrt(e / 2 + 1e-20);
        for (let h = 1; h <= H; h++) amps[h] = amps[h]! * g;
        coefs = formants.map((F, k) => {
          const r = Math.exp((-Math.PI * BANDWIDTHS[k]! * bw) / fs);
          return 2 * r * Math.cos((2 * Math.PI * F) / fs);
        });
        coefs.push(...formants.map((_, k) => Math.exp((-2 * Math.PI * BANDWIDTHS[k]! * bw) / fs)));
      }
      const f0Now = seg.f0From * Math.pow(seg.f0To / seg.f0From, Math.min(1, u * 4));
      const vibDepth = (seg.vibratoCents ?? 0) * Math.min(1, Math.max(0, (t - 0.15) / 0.3));
      vibPhase += (2 * Math.PI * 5.4) / fs;
      const f0 = f0Now * Math.pow(2, (vibDepth * Math.sin(vibPhase)) / 1200) * (1 + 0.002 * (rng.next() - 0.5));
      phase += (2 * Math.PI * f0) / fs;
      if (phase > 2 * Math.PI) phase -= 2 * Math.PI;
      const s1 = Math.sin(phase);
      const c2 = 2 * Math.cos(phase);
      let prev = 0;
      let cur = s1;
      let v = 0;
      for (let h = 1; h < amps.length; h++) {
        const a = amps[h]!;
        if (a === 0) break;
        v += a * cur;
        const next = c2 * cur - prev;
        prev = cur;
        cur = next;
      }
      // Aspiration through the formants.
      let x = (rng.next() - 0.5) * o.breath * 0.02;
      for (let k = 0; k < 5; k++) {
        const y = x + coefs[k]! * ns[2 * k]! - coefs[5 + k]! * ns[2 * k + 1]!;
        ns[2 * k + 1] = ns[2 * k]!;
        ns[2 * k] = y;
        x = y * (1 - coefs[5 + k]!);
      }
      const env = Math.min(1, t / attack, (len - i) / fs / release);
      let sample = (v + x) * env * seg.amplitude;
      // Consonant onset: a short burst before the vowel settles.
      if (seg.onset && t < (seg.onset === 'fricative' ? 0.07 : 0.02)) {
        const n = rng.next() - 0.5;
        const burst = seg.onset === 'fricative' ? 0.25 * Math.exp(-t / 0.03) : 0.6 * Math.exp(-t / 0.006);
        sample += n * burst * seg.amplitude;
      }
      const at = seg.start + i;
      if (at >= 0 && at < out.length) out[at] = out[at]! + sample;
    }
  }
}
