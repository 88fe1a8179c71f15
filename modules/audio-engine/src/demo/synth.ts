/**
 * Demo material made by the product itself, in pure TypeScript (production servers have ffmpeg and nothing else):
 *
 * - `synthesizeDemoSong`: a short afro-pop song in D major at 100 BPM (I-V-vi-IV): drums (synthesised kick, snare,
 *   hats and shaker), a plucked synth bass, electric-piano chords (two-operator FM) and a sung lead melody (formant
 *   synthesis with vibrato, syllables on vowels and onsets), each with its own share of a shared reverb; returned as
 *   stems and their exact sum. Intro, verse and chorus; seeded, so every seed gives a different melody and fills.
 * - `synthesizeDemoVoice`: a spoken-sounding recording (formant-synthesised syllables with a falling phrase
 *   intonation and pauses between phrases) in a noisy room: pink room noise and 50 Hz mains hum with its harmonics,
 *   the kind of recording the enhancement presets are for.
 */
import { type Biquad, BiquadChain, highpass, lowpass, peaking } from '../dsp/biquad';
import { Random } from '../dsp/random';
import { STYLE_REVERB, renderReverb } from '../mix/reverb';
import type { Pcm } from '../pcm';
import { type Vowel, type VoiceSegment, renderVoice } from './voice';

export interface DemoSongOptions {
  /** Length in seconds (about 20-30 s is the product's use); default 24. */
  seconds?: number;
  /** Default 44100. */
  sampleRate?: number;
  /** Default 1. */
  seed?: number;
}

export interface DemoSong {
  /** vocals, drums, bass, keys: stereo, all the same length; their sum is `mixture`. */
  stems: Record<'vocals' | 'drums' | 'bass' | 'keys', Pcm>;
  mixture: Pcm;
  bpm: number;
}

const midiHz = (m: number) => 440 * Math.pow(2, (m - 69) / 12);

function stereo(n: number): [Float32Array, Float32Array] {
  return [new Float32Array(n), new Float32Array(n)];
}

/** Constant-power pan of a mono buffer into a stereo pair (added). */
function panInto(x: Float32Array, pan: number, L: Float32Array, R: Float32Array, at = 0): void {
  const th = ((pan + 1) * Math.PI) / 4;
  const gl = Math.cos(th) * Math.SQRT2;
  const gr = Math.sin(th) * Math.SQRT2;
  for (let i = 0; i < x.length; i++) {
    const j = at + i;
    if (j >= L.length) break;
    L[j] = L[j]! + x[i]! * gl;
    R[j] = R[j]! + x[i]! * gr;
  }
}

function kick(fs: number, rng: Random, velocity: number): Float32Array {
  const n = Math.round(0.45 * fs);
  const out = new Float32Array(n);
  let ph = 0;
  for (let i = 0; i < n; i++) {
    const t = i / fs;
    ph += (2 * Math.PI * (48 + 110 * Math.exp(-t / 0.035))) / fs;
    const click = t < 0.004 ? (rng.next() - 0.5) * 0.6 * (1 - t / 0.004) : 0;
    out[i] = (Math.sin(ph) * Math.exp(-t / 0.15) + click) * velocity;
  }
  return out;
}

function snare(fs: number, rng: Random, velocity: number): Float32Array {
  const n = Math.round(0.3 * fs);
  const out = new Float32Array(n);
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const t = i / fs;
    const noise = rng.next() - 0.5;
    const hp = noise - 0.6 * prev;
    prev = noise;
    out[i] = (0.45 * Math.sin(2 * Math.PI * 185 * t) * Math.exp(-t / 0.06) + 0.9 * hp * Math.exp(-t / 0.11)) * velocity;
  }
  return out;
}

function hat(fs: number, rng: Random, velocity: number, open: boolean): Float32Array {
  const n = Math.round((open ? 0.35 : 0.08) * fs);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = (rng.next() - 0.5) * Math.exp(-i / fs / (open ? 0.12 : 0.025)) * velocity;
  new BiquadChain([highpass(6500, fs), highpass(6500, fs), peaking(10000, fs, 3, 1)]).run(x, x);
  return x;
}

function shaker(fs: number, rng: Random, velocity: number): Float32Array {
  const n = Math.round(0.09 * fs);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / fs;
    x[i] = (rng.next() - 0.5) * Math.min(1, t / 0.012) * Math.exp(-t / 0.03) * velocity;
  }
  new BiquadChain([highpass(4000, fs), lowpass(11000, fs)]).run(x, x);
  return x;
}

function bassNote(fs: number, f: number, seconds: number, velocity: number): Float32Array {
  const n = Math.round(seconds * fs);
  const out = new Float32Array(n);
  let ph = 0;
  for (let i = 0; i < n; i++) {
    const t = i / fs;
    ph += (2 * Math.PI * f) / fs;
    const env = Math.min(1, t / 0.004) * (0.55 + 0.45 * Math.exp(-t / 0.12)) * Math.min(1, (n - i) / (0.03 * fs));
    const raw = Math.sin(ph) + 0.35 * Math.sin(2 * ph) * Math.exp(-t / 0.2) + 0.12 * Math.sin(3 * ph);
    out[i] = Math.tanh(1.4 * raw) * env * velocity;
  }
  return out;
}

/** Two-operator FM electric piano note (modulator at the carrier frequency, decaying index) and a faint bell. */
function epianoNote(fs: number, f: number, seconds: number, velocity: number): Float32Array {
  const n = Math.round(seconds * fs);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / fs;
    const index = 1.6 * velocity * Math.exp(-t / 0.25) + 0.15;
    const body = Math.sin(2 * Math.PI * f * t + index * Math.sin(2 * Math.PI * f * t));
    const bell = 0.08 * Math.sin(2 * Math.PI * f * 7.01 * t) * Math.exp(-t / 0.08);
    const env = Math.min(1, t / 0.003) * Math.exp(-t / 1.2) * Math.min(1, (n - i) / (0.08 * fs));
    out[i] = (body + bell) * env * velocity;
  }
  return out;
}

/** The demo song as stems and mixture. */
export function synthesizeDemoSong(options: DemoSongOptions = {}): DemoSong {
  const seconds = Math.max(4, options.seconds ?? 24);
  const fs = options.sampleRate ?? 44100;
  const seed = options.seed ?? 1;
  const rng = new Random(seed * 7919 + 17);
  const bpm = 100;
  const beat = 60 / bpm;
  const bar = 4 * beat;
  const n = Math.round(seconds * fs);
  const at = (sec: number) => Math.round(sec * fs);
  const bars = Math.ceil(seconds / bar);
  // D major: I - V - vi - IV (D, A, Bm, G), roots as MIDI notes in the bass register.
  const roots = [38, 45, 47, 43];
  const triads = [
    [62, 66, 69],
    [61, 64, 69],
    [62, 66, 71],
    [62, 67, 71],
  ];
  const scale = [59, 61, 62, 64, 66, 67, 69, 71, 73];

  const [dL, dR] = stereo(n);
  const [bL, bR] = stereo(n);
  const [kL, kR] = stereo(n);
  const [vL, vR] = stereo(n);
  const vocal = new Float32Array(n);
  const segments: VoiceSegment[] = [];
  const vowels: Vowel[] = ['a', 'o', 'e', 'a', 'i', 'o', 'u', 'e'];
  let lastNote = 69;
  for (let b = 0; b < bars; b++) {
    const t0 = b * bar;
    const chord = b % 4;
    const intro = b < 2;
    const chorus = !intro && Math.floor((b - 2) / 4) % 2 === 1;
    // Drums: kick on 1 and the "and" of 2 and on 3; snare on 2 and 4 (from bar 2); hats on eighths, an open hat on
    // the last eighth of every other bar; shaker on sixteenths.
    for (const [beatPos, v] of [
      [0, 1],
      [1.5, 0.7],
      [2, 0.9],
    ] as Array<[number, number]>) {
      panInto(kick(fs, rng, 0.9 * v), 0, dL, dR, at(t0 + beatPos * beat));
    }
    if (!intro) {
      for (const p of [1, 3]) panInto(snare(fs, rng, 0.55), 0.05, dL, dR, at(t0 + p * beat));
      if (b % 4 === 3) for (const p of [3.5, 3.75]) panInto(snare(fs, rng, 0.3), 0.05, dL, dR, at(t0 + p * beat));
    }
    for (let e = 0; e < 8; e++) {
      const open = e === 7 && b % 2 === 1;
      panInto(hat(fs, rng, e % 2 ? 0.16 : 0.24, open), 0.35, dL, dR, at(t0 + (e * beat) / 2));
    }
    for (let s = 0; s < 16; s++)
      panInto(shaker(fs, rng, s % 4 === 2 ? 0.12 : 0.07), -0.45, dL, dR, at(t0 + (s * beat) / 4));
    // Bass: syncopated root and octave.
    const root = midiHz(roots[chord]!);
    for (const [p, len, mult, v] of [
      [0, 0.7, 1, 1],
      [0.75, 0.2, 1, 0.6],
      [1.5, 0.45, 2, 0.7],
      [2, 0.9, 1, 0.9],
      [3, 0.4, 1, 0.7],
      [3.5, 0.45, 1.5, 0.7],
    ] as Array<[number, number, number, number]>) {
      panInto(bassNote(fs, root * mult, len * beat, 0.6 * v), 0, bL, bR, at(t0 + p * beat));
    }
    // Keys: off-beat chord stabs, the chorus adds a held chord an octave up.
    for (const p of [0.5, 1.5, 2.5, 3.5]) {
      for (const [k, m] of triads[chord]!.entries()) {
        panInto(epianoNote(fs, midiHz(m), 0.45 * beat, 0.16), -0.55 + 0.25 * k, kL, kR, at(t0 + p * beat));
      }
    }
    if (chorus) {
      for (const m of triads[chord]!) panInto(epianoNote(fs, midiHz(m + 12), bar, 0.05), 0.4, kL, kR, at(t0));
    }
    // Vocal melody from bar 2: phrases of seven eighth/quarter notes on chord tones and steps, resting on beat 4.
    if (!intro) {
      const lift = chorus ? 3 : 0;
      let pos = 0;
      while (pos < 3.5) {
        const len = rng.next() < 0.35 ? 1 : 0.5;
        const tones = triads[chord]!.map((m) => (m < 62 + lift ? m + 12 : m));
        const pool = rng.next() < 0.55 ? tones : scale.filter((m) => m >= 59 + lift);
        const near = pool.filter((m) => Math.abs(m - lastNote) <= 4);
        const list = near.length ? near : pool;
        const note = list[Math.floor(rng.next() * list.length)]!;
        const end = Math.min(pos + len, 3.5);
        const vowel = vowels[Math.floor(rng.next() * vowels.length)]!;
        segments.push({
          start: at(t0 + pos * beat),
          end: at(t0 + end * beat) - at(0.02),
          f0From: midiHz(lastNote),
          f0To: midiHz(note),
          vowel,
          vowelTo: vowel,
          amplitude: 0.13,
          onset: rng.next() < 0.45 ? (rng.next() < 0.5 ? 'fricative' : 'plosive') : null,
          vibratoCents: end - pos >= 1 ? 35 : 15,
        });
        lastNote = note;
        pos = end;
      }
    }
  }
  renderVoice(segments, vocal, {
    sampleRate: fs,
    formantScale: 1.12,
    breath: 0.5,
    seed: seed + 3,
    tilt: 1.2,
    bandwidthScale: 1.8,
    singersFormant: 3,
  });
  panInto(vocal, 0, vL, vR);
  const song: Record<'vocals' | 'drums' | 'bass' | 'keys', Pcm> = {
    vocals: { sampleRate: fs, channels: [vL, vR] },
    drums: { sampleRate: fs, channels: [dL, dR] },
    bass: { sampleRate: fs, channels: [bL, bR] },
    keys: { sampleRate: fs, channels: [kL, kR] },
  };
  // Tone: hats and shaker bright but not harsh; bass tidy; each part's share of a shared plate-like reverb.
  const tone = (pcm: Pcm, sections: Biquad[]) => {
    for (const ch of pcm.channels) new BiquadChain(sections).run(ch, ch);
  };
  tone(song.bass, [lowpass(1800, fs), highpass(35, fs)]);
  tone(song.keys, [highpass(120, fs), peaking(2500, fs, -2, 1)]);
  tone(song.vocals, [highpass(100, fs), peaking(3000, fs, 2, 1)]);
  const reverb = STYLE_REVERB.POP;
  for (const [name, sendDb] of [
    ['vocals', -9],
    ['keys', -12],
    ['drums', -22],
  ] as const) {
    const pcm = song[name];
    const g = Math.pow(10, sendDb / 20);
    const send: [Float32Array, Float32Array] = [pcm.channels[0]!.map((v) => v * g), pcm.channels[1]!.map((v) => v * g)];
    renderReverb(send, fs, reverb, pcm.channels[0]!, pcm.channels[1]!);
  }
  // Fades, then one common gain so the mixture peaks at -3 dBFS (an unmastered mix).
  const fadeIn = at(0.02);
  const fadeOut = at(Math.min(1.5, seconds / 6));
  for (const pcm of Object.values(song)) {
    for (const ch of pcm.channels) {
      for (let i = 0; i < fadeIn; i++) ch[i]! *= i / fadeIn;
      for (let i = 0; i < fadeOut; i++) ch[n - 1 - i]! *= 0.5 - 0.5 * Math.cos((Math.PI * i) / fadeOut);
    }
  }
  const mixture: Pcm = { sampleRate: fs, channels: stereo(n) };
  for (const pcm of Object.values(song)) {
    for (let c = 0; c < 2; c++) {
      const m = mixture.channels[c]!;
      const x = pcm.channels[c]!;
      for (let i = 0; i < n; i++) m[i] = m[i]! + x[i]!;
    }
  }
  let peak = 0;
  for (const ch of mixture.channels) for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(ch[i]!));
  const g = peak > 0 ? Math.pow(10, -3 / 20) / peak : 1;
  for (const pcm of [mixture, ...Object.values(song)])
    for (const ch of pcm.channels) for (let i = 0; i < n; i++) ch[i]! *= g;
  return { stems: song, mixture, bpm };
}

export interface DemoVoiceOptions {
  /** Default 18. */
  seconds?: number;
  /** Default 48000. */
  sampleRate?: number;
  /** Default 1. */
  seed?: number;
  /** Signal-to-noise ratio of the room noise, dB (default 15). */
  snrDb?: number;
  /** Hum level relative to the voice, dB (default -12). */
  humDb?: number;
}

/** A spoken-sounding mono recording with room noise and 50 Hz hum. */
export function synthesizeDemoVoice(options: DemoVoiceOptions = {}): Pcm {
  const seconds = Math.max(2, options.seconds ?? 18);
  const fs = options.sampleRate ?? 48000;
  const seed = options.seed ?? 1;
  const rng = new Random(seed * 104729 + 5);
  const n = Math.round(seconds * fs);
  const voice = new Float32Array(n);
  const segments: VoiceSegment[] = [];
  const vowels: Vowel[] = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'o'];
  // Phrases of 6-12 syllables (4.5-6 per second), falling intonation, 0.35-0.7 s pauses.
  let t = 0.6;
  while (t < seconds - 1.2) {
    const syllables = 6 + Math.floor(rng.next() * 7);
    const rate = 4.5 + rng.next() * 1.5;
    const start = 175 + rng.next() * 30;
    for (let s = 0; s < syllables && t < seconds - 0.8; s++) {
      const dur = (0.7 + rng.next() * 0.6) / rate;
      const stress = s % 3 === 0 ? 1.12 : 1;
      const f0 = start * (1 - (0.28 * s) / syllables) * stress;
      const vowel = vowels[Math.floor(rng.next() * vowels.length)]!;
      const next = vowels[Math.floor(rng.next() * vowels.length)]!;
      segments.push({
        start: Math.round(t * fs),
        end: Math.round((t + dur * 0.88) * fs),
        f0From: f0 * (1 + 0.04 * (rng.next() - 0.5)),
        f0To: f0 * (s === syllables - 1 ? 0.85 : 0.97),
        vowel,
        vowelTo: next,
        amplitude: 0.25 * (s === syllables - 1 ? 0.7 : 1) * (0.85 + 0.3 * rng.next()),
        onset: rng.next() < 0.6 ? (rng.next() < 0.5 ? 'fricative' : 'plosive') : null,
      });
      t += dur;
    }
    t += 0.35 + rng.next() * 0.35;
  }
  renderVoice(segments, voice, {
    sampleRate: fs,
    formantScale: 1.1,
    breath: 0.8,
    seed: seed + 11,
    attackSec: 0.02,
    releaseSec: 0.04,
  });
  new BiquadChain([highpass(85, fs)]).run(voice, voice);
  let e = 0;
  for (let i = 0; i < n; i++) e += voice[i]! * voice[i]!;
  const voiceRms = Math.sqrt(e / n);
  // Room noise: pink-ish (filtered white) at the requested SNR; hum: 50 Hz and harmonics.
  const snr = options.snrDb ?? 15;
  const humDb = options.humDb ?? -12;
  const noise = new Float32Array(n);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < n; i++) {
    const w = rng.gaussian();
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    noise[i] = b0 + b1 + b2 + w * 0.1848;
  }
  let ne = 0;
  for (let i = 0; i < n; i++) ne += noise[i]! * noise[i]!;
  const ng = voiceRms / Math.pow(10, snr / 20) / Math.sqrt(ne / n);
  const ha = voiceRms * Math.pow(10, humDb / 20) * Math.SQRT2;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let hum = 0;
    for (let k = 1; k <= 6; k++) hum += Math.sin((2 * Math.PI * 50 * k * i) / fs + k) / k;
    out[i] = voice[i]! + ng * noise[i]! + ha * 0.6 * hum;
  }
  let peak = 0;
  for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(out[i]!));
  const g = peak > 0 ? Math.pow(10, -6 / 20) / peak : 1;
  for (let i = 0; i < n; i++) out[i]! *= g;
  return { sampleRate: fs, channels: [out] };
}
