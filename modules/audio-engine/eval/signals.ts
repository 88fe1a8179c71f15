/**
 * Deterministic test signals shared by the unit tests and the evaluation: tones at exact levels, noises, tone
 * sequences (the EBU Tech 3341/3342 cases are built from these), and a small synthetic "band" for music-like input.
 */
import { Random } from '../src/dsp/random';
import type { Pcm } from '../src/pcm';

/** Sine of peak level `dbfs` (so a stereo 1 kHz sine at -23 dBFS reads -23 LUFS). */
export function sine(freq: number, sampleRate: number, seconds: number, dbfs: number, phaseDeg = 0): Float32Array {
  const n = Math.round(seconds * sampleRate);
  const a = Math.pow(10, dbfs / 20);
  const ph = (phaseDeg * Math.PI) / 180;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = a * Math.sin((2 * Math.PI * freq * i) / sampleRate + ph);
  return out;
}

/** Same-length copies of one channel. */
export function toChannels(x: Float32Array, count: number): Float32Array[] {
  return Array.from({ length: count }, () => x.slice());
}

export function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A 1 kHz sine sequence of [seconds, dBFS] segments on `channels` identical channels. */
export function toneSequence(sampleRate: number, segments: Array<[number, number]>, channels = 2, freq = 1000): Pcm {
  // Continuous phase across segments, as a tone generator would produce.
  const total = segments.reduce((a, [s]) => a + Math.round(s * sampleRate), 0);
  const x = new Float32Array(total);
  let i = 0;
  for (const [seconds, dbfs] of segments) {
    const a = Math.pow(10, dbfs / 20);
    const n = Math.round(seconds * sampleRate);
    for (let k = 0; k < n; k++, i++) x[i] = a * Math.sin((2 * Math.PI * freq * i) / sampleRate);
  }
  return { sampleRate, channels: toChannels(x, channels) };
}

export function whiteNoise(n: number, rms: number, seed = 1): Float32Array {
  const rng = new Random(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.gaussian() * rms;
  return out;
}

/** Pink noise (-3 dB/octave) by Paul Kellet's refined filter of white noise, scaled to the given RMS. */
export function pinkNoise(n: number, rms: number, seed = 1): Float32Array {
  const rng = new Random(seed);
  const out = new Float32Array(n);
  let b0 = 0,
    b1 = 0,
    b2 = 0,
    b3 = 0,
    b4 = 0,
    b5 = 0,
    b6 = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const w = rng.gaussian();
    b0 = 0.99886 * b0 + w * 0.0555179;
    b1 = 0.99332 * b1 + w * 0.0750759;
    b2 = 0.969 * b2 + w * 0.153852;
    b3 = 0.8665 * b3 + w * 0.3104856;
    b4 = 0.55 * b4 + w * 0.5329522;
    b5 = -0.7616 * b5 - w * 0.016898;
    const v = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362;
    b6 = w * 0.115926;
    out[i] = v;
    sum += v * v;
  }
  const scale = rms / Math.sqrt(sum / Math.max(1, n));
  for (let i = 0; i < n; i++) out[i]! *= scale;
  return out;
}

export interface BandOptions {
  sampleRate: number;
  seconds: number;
  /** Beats per minute (default 120). */
  bpm?: number;
  seed?: number;
  /** Stereo spread of the pad and hats (0 mono .. 1 wide). */
  width?: number;
}

/**
 * A deterministic synthetic band: kick, snare (noise burst), hi-hats, a bass line, a chord pad and a lead, mixed in
 * stereo around -21 LUFS. Not music anyone would release, but it has the spectrum, transients, stereo image and
 * crest factor that a mastering chain has to handle.
 */
export function syntheticBand(options: BandOptions): Pcm {
  const { sampleRate: fs, seconds } = options;
  const bpm = options.bpm ?? 120;
  const width = options.width ?? 0.6;
  const rng = new Random(options.seed ?? 7);
  const n = Math.round(seconds * fs);
  const left = new Float32Array(n);
  const right = new Float32Array(n);
  const beat = (60 / bpm) * fs;
  const add = (i: number, l: number, r: number) => {
    if (i >= 0 && i < n) {
      left[i] = left[i]! + l;
      right[i] = right[i]! + r;
    }
  };
  const roots = [45, 41, 48, 43]; // A, F, C, G (MIDI), one chord per bar
  const hz = (m: number) => 440 * Math.pow(2, (m - 69) / 12);
  const beats = Math.floor(n / beat);
  for (let b = 0; b < beats; b++) {
    const t0 = Math.round(b * beat);
    const bar = Math.floor(b / 4);
    const root = roots[bar % roots.length]!;
    // Kick on every beat: pitch-swept sine with exponential decay.
    for (let k = 0; k < 0.35 * fs; k++) {
      const t = k / fs;
      const f = 50 + 90 * Math.exp(-t * 30);
      const v = 0.55 * Math.exp(-t * 9) * Math.sin(2 * Math.PI * f * t);
      add(t0 + k, v, v);
    }
    // Snare on beats 2 and 4: noise burst plus a 190 Hz body.
    if (b % 2 === 1) {
      let lp = 0;
      for (let k = 0; k < 0.2 * fs; k++) {
        const t = k / fs;
        lp = 0.6 * lp + 0.4 * rng.gaussian(); // one-pole low-pass: a darker snare
        const v = 0.3 * Math.exp(-t * 22) * lp + 0.2 * Math.exp(-t * 30) * Math.sin(2 * Math.PI * 190 * t);
        add(t0 + k, v, v);
      }
    }
    // Hi-hats on eighths: high-passed noise (first difference), panned.
    for (let h = 0; h < 2; h++) {
      const th = t0 + Math.round((h * beat) / 2);
      let prev = 0;
      for (let k = 0; k < 0.05 * fs; k++) {
        const w = rng.gaussian();
        const v = 0.03 * Math.exp(-(k / fs) * 80) * (w - prev);
        prev = w;
        add(th + k, v * (1 + 0.5 * width), v * (1 - 0.5 * width));
      }
    }
    // Bass: root on eighths, saw-ish (3 harmonics).
    for (let h = 0; h < 2; h++) {
      const th = t0 + Math.round((h * beat) / 2);
      const f = hz(root - 12 + (h === 1 && b % 4 === 3 ? 7 : 0));
      for (let k = 0; k < beat / 2; k++) {
        const t = k / fs;
        const env = Math.min(1, t * 200) * Math.exp(-t * 3);
        const v =
          0.22 *
          env *
          (Math.sin(2 * Math.PI * f * t) + 0.5 * Math.sin(4 * Math.PI * f * t) + 0.25 * Math.sin(6 * Math.PI * f * t));
        add(th + k, v, v);
      }
    }
    // Lead: a pentatonic note per beat, slightly right.
    const scale = [0, 3, 5, 7, 10, 12];
    const note = 69 + scale[Math.floor(rng.next() * scale.length)]!;
    const fl = hz(note);
    for (let k = 0; k < beat * 0.9; k++) {
      const t = k / fs;
      const env = Math.min(1, t * 50) * Math.exp(-t * 2.5);
      const vib = 1 + 0.004 * Math.sin(2 * Math.PI * 5.5 * t);
      const v = 0.09 * env * (Math.sin(2 * Math.PI * fl * vib * t) + 0.3 * Math.sin(4 * Math.PI * fl * vib * t));
      add(t0 + k, v * (1 - 0.3 * width), v * (1 + 0.3 * width));
    }
  }
  // Pad: minor triad per bar, detuned left/right for width.
  const barLen = Math.round(4 * beat);
  for (let s = 0; s < n; s++) {
    const bar = Math.floor(s / barLen);
    const root = roots[bar % roots.length]! + 12;
    const t = s / fs;
    const pos = (s % barLen) / fs;
    const env = Math.min(1, pos * 4) * Math.min(1, (barLen / fs - pos) * 8);
    let l = 0;
    let r = 0;
    for (const iv of [0, 3, 7]) {
      const f = hz(root + iv);
      l += Math.sin(2 * Math.PI * f * (1 - 0.002 * width) * t);
      r += Math.sin(2 * Math.PI * f * (1 + 0.002 * width) * t);
    }
    add(s, 0.035 * env * l, 0.035 * env * r);
  }
  // Mix bus: about -21 LUFS with 5-6 dB of true-peak headroom.
  for (let i = 0; i < n; i++) {
    left[i]! *= 0.4;
    right[i]! *= 0.4;
  }
  return { sampleRate: fs, channels: [left, right] };
}
