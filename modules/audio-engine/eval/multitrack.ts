/**
 * Multitrack evaluation songs with known stems: arrangements written as MIDI here, each part rendered alone by
 * fluidsynth with the General MIDI sound font (its reverb on, its chorus off; a stem is what that part contributes to
 * the mix, reverb tail included), and the mixture computed as the exact sum of the parts. Three styles with different
 * instrumentation and panning, humanised timing and velocity so that nothing repeats sample for sample. The "vocal" is
 * a GM voice patch (Voice Oohs or Synth Voice) singing a melody: a stand-in for a singer, without lyrics,
 * consonants or breath.
 *
 * The sub-stems' ground truth (issue 29): the drum part is also rendered piece by piece (its kick, snare, hi-hat,
 * cymbal and tom notes alone; the fill's second note is GM's open hi-hat, 46, and counts with the hats), and the
 * SUBSTEM_SONGS mark the parts that are a lead or a backing voice, an acoustic or an electric guitar.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Random } from '../src/dsp/random';
import { ToolMissingError } from '../src/errors';
import { decodeAudio } from '../src/io/decode';
import { type Pcm, frameCount } from '../src/pcm';
import { SOUND_FONT, which } from './material';
import { type NoteEvent, PPQ, midiFile } from './midi';

const run = promisify(execFile);

/** What a part counts as in the separation ground truth. */
export type PartRole = 'vocals' | 'drums' | 'bass' | 'guitars' | 'piano' | 'keys' | 'strings' | 'brass';

export interface SongPart {
  name: string;
  role: PartRole;
  channel: number;
  program: number;
  /** MIDI pan, 0 (left) .. 64 (centre) .. 127 (right). */
  pan: number;
  volume: number;
  notes: NoteEvent[];
  /** The sub-stem the part is the ground truth of (issue 29's modes), where it is one. */
  substem?: 'lead_vocals' | 'backing_vocals' | 'acoustic_guitars' | 'electric_guitars';
}

/** `duet`: a lead and a backing voice, an acoustic and an electric guitar (the sub-stem songs). */
export type SongStyle = 'pop' | 'rock' | 'highlife' | 'duet';

export interface SongSpec {
  name: string;
  style: SongStyle;
  bpm: number;
  bars: number;
  /** MIDI note of the key's tonic (minor keys for pop and rock, major for highlife). */
  tonic: number;
  seed: number;
  /** Whether the separator's parameters were chosen on this song (the others are held out). */
  tuning: boolean;
}

export const EVAL_SONGS: readonly SongSpec[] = [
  { name: 'pop-ballad', style: 'pop', bpm: 92, bars: 36, tonic: 57, seed: 11, tuning: true },
  { name: 'rock-drive', style: 'rock', bpm: 128, bars: 44, tonic: 52, seed: 22, tuning: true },
  { name: 'highlife', style: 'highlife', bpm: 116, bars: 40, tonic: 55, seed: 33, tuning: true },
  { name: 'pop-uptempo', style: 'pop', bpm: 118, bars: 40, tonic: 60, seed: 44, tuning: false },
  { name: 'rock-fast', style: 'rock', bpm: 140, bars: 44, tonic: 57, seed: 55, tuning: false },
  { name: 'highlife-slow', style: 'highlife', bpm: 104, bars: 36, tonic: 53, seed: 66, tuning: false },
];

/**
 * The songs of the vocals and guitars modes' sub-stems (issue 29): a lead voice in the centre with a backing voice a
 * third under it in the choruses, doubled left and right; a strummed steel-string acoustic guitar on the left and a
 * picked clean electric on the right. Apart from EVAL_SONGS, whose figures they would otherwise move.
 */
export const SUBSTEM_SONGS: readonly SongSpec[] = [
  { name: 'duet-ballad', style: 'duet', bpm: 88, bars: 36, tonic: 57, seed: 77, tuning: true },
  { name: 'duet-uptempo', style: 'duet', bpm: 112, bars: 36, tonic: 62, seed: 88, tuning: false },
];

type Section = 'intro' | 'verse' | 'chorus' | 'outro';

function sectionOf(bar: number, bars: number): Section {
  if (bar < 4) return 'intro';
  if (bar >= bars - 4) return 'outro';
  return Math.floor((bar - 4) / 8) % 2 === 0 ? 'verse' : 'chorus';
}

/** The arrangement of a song as parts (one MIDI channel each). */
export function arrangeSong(spec: SongSpec): SongPart[] {
  const rng = new Random(spec.seed);
  const beat = PPQ;
  const bar = 4 * beat;
  const jitter = (t: number) => Math.max(0, t + Math.round((rng.next() - 0.5) * 16));
  const vel = (v: number) => Math.max(1, Math.min(127, Math.round(v + (rng.next() - 0.5) * 14)));
  const minor = spec.style !== 'highlife';
  const scale = minor ? [0, 2, 3, 5, 7, 8, 10] : [0, 2, 4, 5, 7, 9, 11];
  // Chord roots as scale degrees: i-VI-III-VII (minor) or I-IV-V-IV / I-vi-IV-V (major).
  const popLike = spec.style === 'pop' || spec.style === 'duet';
  const degrees = popLike ? [0, 5, 2, 6] : spec.style === 'rock' ? [0, 5, 6, 4] : [0, 3, 4, 3];
  const chordOf = (b: number): number[] => {
    const d = degrees[b % degrees.length]!;
    return [0, 2, 4].map((s) => {
      const idx = d + s;
      return spec.tonic - 12 + scale[idx % 7]! + 12 * Math.floor(idx / 7);
    });
  };
  const parts = new Map<string, SongPart>();
  const part = (
    name: string,
    role: PartRole,
    channel: number,
    program: number,
    pan: number,
    volume = 100,
    substem?: SongPart['substem'],
  ) => {
    let p = parts.get(name);
    if (!p) {
      p = { name, role, channel, program, pan, volume, notes: [], ...(substem ? { substem } : {}) };
      parts.set(name, p);
    }
    return p;
  };
  const add = (p: SongPart, tick: number, note: number, velocity: number, length: number) =>
    p.notes.push({ tick: jitter(tick), channel: p.channel, note, velocity: vel(velocity), length });

  const voiceProgram = spec.style === 'rock' ? 54 : 53;
  const duet = spec.style === 'duet';
  const vocals = part('vocals', 'vocals', 0, voiceProgram, 64, 110, duet ? 'lead_vocals' : undefined);
  const drums = part('drums', 'drums', 9, 0, 64, 100);
  const bass = part('bass', 'bass', 1, spec.style === 'rock' ? 34 : 33, 64, 105);
  for (let b = 0; b < spec.bars; b++) {
    const section = sectionOf(b, spec.bars);
    const t0 = b * bar;
    const chord = chordOf(b);
    const loud = section === 'chorus' ? 1 : section === 'verse' ? 0.85 : 0.7;
    // Drums.
    if (section !== 'intro' || b >= 2) {
      for (let q = 0; q < 4; q++) {
        const kick = spec.style === 'highlife' ? q === 0 || q === 2 || (q === 3 && rng.next() < 0.4) : q % 2 === 0;
        if (kick) add(drums, t0 + q * beat, 36, 112 * loud, beat / 4);
        if (spec.style === 'rock' && q === 2 && rng.next() < 0.5)
          add(drums, t0 + q * beat + beat / 2, 36, 100, beat / 4);
        if (q === 1 || q === 3) add(drums, t0 + q * beat, spec.style === 'highlife' ? 37 : 38, 105 * loud, beat / 4);
        const subdivisions = spec.style === 'rock' ? 2 : 2;
        for (let e = 0; e < subdivisions; e++) {
          const hat = spec.style === 'rock' && section === 'chorus' ? 51 : 42;
          add(drums, t0 + q * beat + (e * beat) / subdivisions, hat, (62 + 22 * (1 - e)) * loud, beat / 8);
        }
        if (spec.style === 'highlife') {
          add(drums, t0 + q * beat + beat / 2, q % 2 ? 63 : 64, 80 * loud, beat / 4);
          add(drums, t0 + q * beat + (3 * beat) / 4, 70, 60 * loud, beat / 8);
        }
      }
      if (section === 'chorus' && (b - 4) % 8 === 0) add(drums, t0, 49, 110, beat);
      if ((b + 1) % 8 === 0)
        for (let s = 0; s < 4; s++) add(drums, t0 + 3 * beat + (s * beat) / 4, 45 + s, 95, beat / 4);
    }
    // Bass.
    const root = chord[0]! - 12 >= 28 ? chord[0]! - 12 : chord[0]!;
    if (section !== 'intro' || b >= 2) {
      if (popLike) {
        for (let q = 0; q < 4; q++) add(bass, t0 + q * beat, q === 3 ? root + 7 : root, 100 * loud, beat * 0.9);
      } else if (spec.style === 'rock') {
        for (let e = 0; e < 8; e++) add(bass, t0 + (e * beat) / 2, root, 100 * loud, (beat / 2) * 0.85);
      } else {
        const pattern: Array<[number, number, number]> = [
          [0, 0, 0.75],
          [0.75, 7, 0.25],
          [1.5, 12, 0.5],
          [2, 7, 0.75],
          [3, 4, 0.5],
          [3.5, 7, 0.5],
        ];
        for (const [at, iv, len] of pattern) add(bass, t0 + at * beat, root + iv, 98 * loud, len * beat * 0.9);
      }
    }
    // Harmony.
    if (spec.style === 'pop') {
      const piano = part('piano', 'piano', 2, 0, 24, 92);
      for (let q = 0; q < 4; q++) {
        const notes = q % 2 === 0 ? chord : chord.map((x) => x + 12);
        for (const x of notes) add(piano, t0 + q * beat, x, 70 * loud, beat * 0.95);
      }
      if (section === 'chorus' || section === 'outro') {
        const strings = part('strings', 'strings', 3, 48, 104, 88);
        for (const x of chord) add(strings, t0, x + 12, 78, bar);
      }
    } else if (spec.style === 'rock') {
      const drive = part('guitar-drive', 'guitars', 2, 29, 108, 88);
      const clean = part('guitar-clean', 'guitars', 3, 27, 20, 90);
      if (section !== 'intro') {
        for (let e = 0; e < 8; e++) {
          for (const x of [root + 12, root + 19, root + 24])
            add(drive, t0 + (e * beat) / 2, x, 96 * loud, (beat / 2) * 0.9);
        }
      }
      const arp = [chord[0]! + 12, chord[1]! + 12, chord[2]! + 12, chord[1]! + 24];
      for (let e = 0; e < 8; e++) add(clean, t0 + (e * beat) / 2, arp[e % 4]!, 76 * loud, beat);
      if (section === 'chorus') {
        const organ = part('organ', 'keys', 4, 16, 84, 70);
        for (const x of chord) add(organ, t0, x, 70, bar);
      }
    } else if (duet) {
      // A strummed steel-string (five strings down, up on the off-beats) and a picked clean electric an octave up.
      const acoustic = part('guitar-acoustic', 'guitars', 2, 25, 30, 92, 'acoustic_guitars');
      const electric = part('guitar-electric', 'guitars', 3, 27, 100, 84, 'electric_guitars');
      const strum = [chord[0]!, chord[1]!, chord[2]!, chord[0]! + 12, chord[1]! + 12];
      for (let e = 0; e < 8; e++) {
        const order = e % 2 ? [...strum].reverse() : strum;
        order.forEach((x, i) =>
          add(acoustic, t0 + (e * beat) / 2 + i * 10, x + 12, (e % 2 ? 64 : 84) * loud, beat / 2),
        );
      }
      if (section !== 'intro') {
        const pick = [chord[0]! + 24, chord[2]! + 12, chord[1]! + 24, chord[2]! + 12];
        for (let q = 0; q < 4; q++) add(electric, t0 + q * beat, pick[q]!, 80 * loud, beat * 0.8);
      }
    } else {
      const guitar = part('guitar', 'guitars', 2, 27, 104, 95);
      const keys = part('keys', 'keys', 3, 4, 26, 88);
      const riff = [0, 2, 1, 2, 0, 2, 1, 2];
      for (let s = 0; s < 8; s++) {
        const x = chord[riff[s]!]! + 12 + (s === 6 ? 12 : 0);
        add(guitar, t0 + (s * beat) / 2 + (s % 2 ? beat / 4 : 0), x, 82 * loud, beat / 3);
      }
      for (const at of [0.5, 1.5, 2.5, 3.5])
        for (const x of chord) add(keys, t0 + at * beat, x + 12, 68 * loud, beat / 3);
      if (section === 'chorus') {
        const brass = part('brass', 'brass', 4, 61, 84, 85);
        for (const x of [chord[0]! + 12, chord[2]! + 12]) add(brass, t0 + 3.5 * beat, x, 96, beat / 2);
      }
    }
    // Vocal melody: phrases of two bars, silent in the intro and outro and for the last beat of every phrase.
    if (section === 'verse' || section === 'chorus') {
      const low = spec.tonic - 3 + (section === 'chorus' ? 5 : 0);
      const pool: number[] = [];
      for (let o = -1; o <= 2; o++) for (const s of scale) pool.push(spec.tonic - 12 + 12 * o + s);
      const inRange = pool.filter((x) => x >= low && x <= low + 14);
      const second = b % 2 === 1;
      let t = 0;
      let prev = chord[0]! + 12;
      while (t < (second ? 3 * beat : 4 * beat)) {
        const len = rng.next() < 0.25 ? beat : rng.next() < 0.5 ? beat / 2 : beat * 1.5;
        const chordTones = chord.map((x) => x + 12).filter((x) => x >= low && x <= low + 14);
        const candidates = rng.next() < 0.6 && chordTones.length ? chordTones : inRange;
        const near = candidates.filter((x) => Math.abs(x - prev) <= 5);
        const list = near.length ? near : candidates;
        const note = list[Math.floor(rng.next() * list.length)]!;
        const end = Math.min(t + len, second ? 3 * beat : 4 * beat);
        add(vocals, t0 + t, note, 100 * loud, (end - t) * 0.95);
        if (duet && section === 'chorus') {
          // The backing voice: the scale note a third under the lead, doubled left and right.
          const under = pool.filter((x) => x <= note - 3 && x >= note - 4).at(-1) ?? note - 3;
          for (const [name, channel, pan] of [
            ['backing-left', 5, 30],
            ['backing-right', 6, 98],
          ] as const)
            add(
              part(name, 'vocals', channel, 52, pan, 84, 'backing_vocals'),
              t0 + t,
              under,
              82 * loud,
              (end - t) * 0.95,
            );
        }
        prev = note;
        t = end;
      }
    }
  }
  return [...parts.values()];
}

/** The drum kit's pieces, named as the drums mode's sub-stems (audio-services section 3). */
export const DRUM_PIECES = ['kick_drums', 'snare_drums', 'hi_hats', 'cymbals', 'toms'] as const;
export type DrumPiece = (typeof DRUM_PIECES)[number];

/**
 * The piece a General MIDI percussion key (channel 10) belongs to, or null for the rest of the kit (claps, congas,
 * maracas and the other hand percussion, which the drums mode leaves in `other`).
 */
export function drumPieceOf(note: number): DrumPiece | null {
  if (note === 35 || note === 36) return 'kick_drums';
  if (note === 37 || note === 38 || note === 40) return 'snare_drums'; // side stick, acoustic and electric snare
  if (note === 42 || note === 44 || note === 46) return 'hi_hats'; // closed, pedal, open
  if ([49, 51, 52, 53, 55, 57, 59].includes(note)) return 'cymbals'; // crashes, rides, china, splash
  if ([41, 43, 45, 47, 48, 50].includes(note)) return 'toms';
  return null;
}

export interface RenderedSong {
  spec: SongSpec;
  parts: Array<{ part: SongPart; pcm: Pcm }>;
  mixture: Pcm;
  /**
   * Each drum piece the song plays, rendered alone from the drum part's notes of that piece (same channel, volume and
   * pan): the ground truth of the drums mode's sub-stems. They sum to the drum part but for its hand percussion.
   */
  drumPieces: Map<DrumPiece, Pcm>;
}

/** Renders every part alone with fluidsynth (44.1 kHz stereo), then sums them; all scaled so the mix peaks at -1 dBFS. */
export async function renderMultitrack(dir: string, spec: SongSpec): Promise<RenderedSong> {
  try {
    accessSync(SOUND_FONT, constants.R_OK);
  } catch {
    throw new ToolMissingError('the GM sound font', 'apt-get install -y fluid-soundfont-gm (or set KORA_SOUNDFONT)');
  }
  const fluidsynth = which('fluidsynth');
  const parts = arrangeSong(spec);
  const rendered: Array<{ part: SongPart; pcm: Pcm }> = [];
  let length = Math.round(((spec.bars * 4 * 60) / spec.bpm + 2.5) * 44100);
  const renderNotes = async (part: SongPart, name: string, notes: NoteEvent[]): Promise<Pcm> => {
    const midi = join(dir, `${spec.name}-${name}.mid`);
    const wav = join(dir, `${spec.name}-${name}.wav`);
    const programs = new Map<number, number>();
    if (part.channel !== 9) programs.set(part.channel, part.program);
    const ccs = new Map<number, Array<[number, number]>>([
      [
        part.channel,
        [
          [7, part.volume],
          [10, part.pan],
        ],
      ],
    ]);
    await writeFile(midi, midiFile(notes, programs, spec.bpm, ccs));
    await run(fluidsynth, ['-ni', '-C', '0', '-g', '0.5', '-r', '44100', '-F', wav, SOUND_FONT, midi]);
    const { pcm } = await decodeAudio(wav, { sampleRate: 44100, channels: 2 });
    length = Math.max(length, frameCount(pcm));
    return pcm;
  };
  const pieces: Array<{ piece: DrumPiece; pcm: Pcm }> = [];
  for (const part of parts) {
    rendered.push({ part, pcm: await renderNotes(part, part.name, part.notes) });
    if (part.role !== 'drums') continue;
    for (const piece of DRUM_PIECES) {
      const notes = part.notes.filter((note) => drumPieceOf(note.note) === piece);
      if (notes.length > 0) pieces.push({ piece, pcm: await renderNotes(part, `${part.name}-${piece}`, notes) });
    }
  }
  const fit = (pcm: Pcm): Pcm => ({
    sampleRate: 44100,
    channels: pcm.channels.map((c) => {
      const x = new Float32Array(length);
      x.set(c.subarray(0, length));
      return x;
    }),
  });
  for (const r of rendered) r.pcm = fit(r.pcm);
  for (const p of pieces) p.pcm = fit(p.pcm);
  const mixture: Pcm = { sampleRate: 44100, channels: [new Float32Array(length), new Float32Array(length)] };
  for (const r of rendered) {
    for (let c = 0; c < 2; c++) {
      const m = mixture.channels[c]!;
      const x = r.pcm.channels[c]!;
      for (let i = 0; i < length; i++) m[i] = m[i]! + x[i]!;
    }
  }
  let peak = 0;
  for (const ch of mixture.channels) for (const v of ch) peak = Math.max(peak, Math.abs(v));
  const g = peak > 0 ? Math.pow(10, -1 / 20) / peak : 1;
  for (const pcm of [mixture, ...rendered.map((r) => r.pcm), ...pieces.map((p) => p.pcm)])
    for (const ch of pcm.channels) for (let i = 0; i < ch.length; i++) ch[i]! *= g;
  return { spec, parts: rendered, mixture, drumPieces: new Map(pieces.map((p) => [p.piece, p.pcm])) };
}

/** Sum of the parts whose role is in `roles` (or that `roles` picks). */
export function sumParts(song: RenderedSong, roles: readonly PartRole[] | ((part: SongPart) => boolean)): Pcm {
  const picked = typeof roles === 'function' ? roles : (part: SongPart) => roles.includes(part.role);
  const length = frameCount(song.mixture);
  const out: Pcm = {
    sampleRate: song.mixture.sampleRate,
    channels: [new Float32Array(length), new Float32Array(length)],
  };
  for (const { part, pcm } of song.parts) {
    if (!picked(part)) continue;
    for (let c = 0; c < 2; c++) {
      const o = out.channels[c]!;
      const x = pcm.channels[c]!;
      for (let i = 0; i < length; i++) o[i] = o[i]! + x[i]!;
    }
  }
  return out;
}
