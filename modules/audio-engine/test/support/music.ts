/**
 * A small synthetic multitrack for separation tests, with known parts: a centred sung line (formant voice with
 * vibrato), a kick-and-hat pattern, a bass line with harmonics, and a sustained chord panned left.
 */
import { renderVoice, type VoiceSegment } from '../../src/demo/voice';
import { Random } from '../../src/dsp/random';
import type { Pcm } from '../../src/pcm';

export interface TestSong {
  parts: { vocals: Pcm; drums: Pcm; bass: Pcm; chords: Pcm };
  mixture: Pcm;
}

const hz = (m: number) => 440 * Math.pow(2, (m - 69) / 12);

export function testSong(seconds: number, fs = 44100, seed = 1): TestSong {
  const n = Math.round(seconds * fs);
  const rng = new Random(seed);
  const beat = 0.5;
  // Vocal: a melody of half-beat and one-beat notes with rests, centred.
  const voice = new Float32Array(n);
  const segments: VoiceSegment[] = [];
  const notes = [64, 67, 69, 67, 64, 62, 64, 71, 69, 67];
  let t = 0.5;
  let k = 0;
  while (t < seconds - 1) {
    const len = k % 3 === 2 ? 2 * beat : beat;
    const note = notes[k % notes.length]!;
    const prev = notes[(k + notes.length - 1) % notes.length]!;
    segments.push({
      start: Math.round(t * fs),
      end: Math.round((t + len * 0.9) * fs),
      f0From: hz(prev),
      f0To: hz(note),
      vowel: (['a', 'o', 'e', 'i'] as const)[k % 4]!,
      amplitude: 0.12,
      vibratoCents: 30,
    });
    t += len + (k % 4 === 3 ? beat : 0);
    k++;
  }
  renderVoice(segments, voice, {
    sampleRate: fs,
    formantScale: 1.1,
    breath: 0.3,
    seed,
    tilt: 1.2,
    bandwidthScale: 1.8,
    singersFormant: 3,
  });
  // Drums: a pitched-down kick on every beat, a noise hat on the off-beats.
  const drums = new Float32Array(n);
  for (let b = 0; b * beat < seconds; b++) {
    const s = Math.round(b * beat * fs);
    let ph = 0;
    for (let i = 0; i < 0.12 * fs && s + i < n; i++) {
      const tt = i / fs;
      ph += (2 * Math.PI * (50 + 120 * Math.exp(-tt / 0.02))) / fs;
      drums[s + i] = drums[s + i]! + 0.5 * Math.sin(ph) * Math.exp(-tt / 0.05);
    }
    const h = Math.round((b + 0.5) * beat * fs);
    let prevNoise = 0;
    for (let i = 0; i < 0.04 * fs && h + i < n; i++) {
      const w = rng.next() - 0.5;
      drums[h + i] = drums[h + i]! + 0.25 * (w - prevNoise) * Math.exp(-i / fs / 0.01);
      prevNoise = w;
    }
  }
  // Bass: root notes per bar with a few harmonics.
  const bass = new Float32Array(n);
  const roots = [40, 45, 43, 38];
  for (let i = 0; i < n; i++) {
    const tt = i / fs;
    const f = hz(roots[Math.floor(tt / (4 * beat)) % roots.length]!);
    const local = (tt % beat) / beat;
    const env = Math.min(1, local * 50) * (0.6 + 0.4 * Math.exp(-local * 4));
    const p = 2 * Math.PI * f * tt;
    bass[i] = 0.18 * env * (Math.sin(p) + 0.4 * Math.sin(2 * p) + 0.15 * Math.sin(3 * p));
  }
  // Chords: sustained triads (a pad), panned left.
  const pad = new Float32Array(n);
  const triads = [
    [64, 68, 71],
    [69, 73, 76],
    [67, 71, 74],
    [62, 66, 69],
  ];
  for (let i = 0; i < n; i++) {
    const tt = i / fs;
    const chord = triads[Math.floor(tt / (4 * beat)) % triads.length]!;
    let v = 0;
    for (const m of chord) for (let h = 1; h <= 4; h++) v += Math.sin(2 * Math.PI * hz(m - 12) * h * tt) / (h * h);
    pad[i] = 0.03 * v;
  }
  const stereo = (x: Float32Array, pan: number): Pcm => {
    const th = ((pan + 1) * Math.PI) / 4;
    return {
      sampleRate: fs,
      channels: [x.map((v) => v * Math.cos(th) * Math.SQRT2), x.map((v) => v * Math.sin(th) * Math.SQRT2)],
    };
  };
  const parts = { vocals: stereo(voice, 0), drums: stereo(drums, 0), bass: stereo(bass, 0), chords: stereo(pad, -0.7) };
  const mixture: Pcm = { sampleRate: fs, channels: [new Float32Array(n), new Float32Array(n)] };
  for (const p of Object.values(parts)) {
    for (let c = 0; c < 2; c++)
      for (let i = 0; i < n; i++) mixture.channels[c]![i] = mixture.channels[c]![i]! + p.channels[c]![i]!;
  }
  return { parts, mixture };
}
