/**
 * A small Standard MIDI File writer and a deterministic pop-song arrangement for the evaluation material: intro,
 * verses and choruses with drums, bass, piano, strings and a lead, rendered to audio by fluidsynth with the General
 * MIDI sound font. The arrangement changes density and level between sections, so previews, dynamics and loudness
 * range have something real to work on.
 */
import { Random } from '../src/dsp/random';

export interface NoteEvent {
  tick: number;
  channel: number;
  note: number;
  velocity: number;
  length: number;
}

export const PPQ = 480;

function vlq(n: number): number[] {
  const bytes = [n & 0x7f];
  let v = n >>> 7;
  while (v > 0) {
    bytes.unshift((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  return bytes;
}

function track(events: Array<{ tick: number; data: number[] }>): Buffer {
  // At equal ticks: meta events, control and program changes first, then note-offs, then note-ons.
  const rank = (d: number) =>
    d === 0xff || (d & 0xe0) === 0xa0 || (d & 0xf0) === 0xc0 ? 0 : (d & 0xf0) === 0x80 ? 1 : 2;
  const sorted = [...events].sort((a, b) => a.tick - b.tick || rank(a.data[0]!) - rank(b.data[0]!));
  const bytes: number[] = [];
  let last = 0;
  for (const e of sorted) {
    bytes.push(...vlq(e.tick - last), ...e.data);
    last = e.tick;
  }
  bytes.push(0, 0xff, 0x2f, 0);
  const header = Buffer.alloc(8);
  header.write('MTrk', 0, 'latin1');
  header.writeUInt32BE(bytes.length, 4);
  return Buffer.concat([header, Buffer.from(bytes)]);
}

/**
 * Encodes notes as a format-1 MIDI file (one track per channel, tempo in the first). `controllers` gives control
 * changes sent at tick 0 per channel (e.g. [10, 32] pans left, [7, 100] sets the volume).
 */
export function midiFile(
  notes: NoteEvent[],
  programs: Map<number, number>,
  bpm: number,
  controllers: Map<number, Array<[number, number]>> = new Map(),
): Buffer {
  const tempo = Math.round(60_000_000 / bpm);
  const tracks: Buffer[] = [
    track([{ tick: 0, data: [0xff, 0x51, 3, (tempo >> 16) & 0xff, (tempo >> 8) & 0xff, tempo & 0xff] }]),
  ];
  const channels = [...new Set(notes.map((n) => n.channel))].sort((a, b) => a - b);
  for (const ch of channels) {
    const events: Array<{ tick: number; data: number[] }> = [];
    const program = programs.get(ch);
    if (program !== undefined) events.push({ tick: 0, data: [0xc0 | ch, program] });
    for (const [cc, value] of controllers.get(ch) ?? []) events.push({ tick: 0, data: [0xb0 | ch, cc, value] });
    for (const n of notes.filter((x) => x.channel === ch)) {
      events.push({ tick: n.tick, data: [0x90 | ch, n.note, n.velocity] });
      events.push({ tick: n.tick + n.length, data: [0x80 | ch, n.note, 0] });
    }
    tracks.push(track(events));
  }
  const header = Buffer.alloc(14);
  header.write('MThd', 0, 'latin1');
  header.writeUInt32BE(6, 4);
  header.writeUInt16BE(1, 8);
  header.writeUInt16BE(tracks.length, 10);
  header.writeUInt16BE(PPQ, 12);
  return Buffer.concat([header, ...tracks]);
}

type Section = 'intro' | 'verse' | 'chorus' | 'bridge';

/**
 * A song of `bars` bars at `bpm`: 4-bar intro, then verse (8) / chorus (8) pairs with a 4-bar bridge every second
 * pair. `seed` varies the melody and fills.
 */
export function popSong(bars: number, bpm = 112, seed = 1): Buffer {
  const rng = new Random(seed);
  const notes: NoteEvent[] = [];
  const beat = PPQ;
  const bar = 4 * beat;
  const progression = [
    [57, 60, 64], // A minor
    [53, 57, 60], // F
    [48, 52, 55], // C
    [55, 59, 62], // G
  ];
  const sectionOf = (b: number): Section => {
    if (b < 4) return 'intro';
    const k = (b - 4) % 36;
    if (k < 8) return 'verse';
    if (k < 16) return 'chorus';
    if (k < 24) return 'verse';
    if (k < 32) return 'chorus';
    return 'bridge';
  };
  const scale = [0, 2, 3, 5, 7, 8, 10, 12];
  for (let b = 0; b < bars; b++) {
    const section = sectionOf(b);
    const t0 = b * bar;
    const chord = progression[b % 4]!;
    const loud = section === 'chorus' ? 1 : section === 'verse' ? 0.8 : 0.6;
    const v = (x: number) => Math.max(1, Math.min(127, Math.round(x * loud)));
    // Drums (channel 10 = index 9): kick, snare, hats; crash at chorus starts.
    if (section !== 'intro') {
      for (let q = 0; q < 4; q++) {
        if (q === 0 || q === 2 || (section === 'chorus' && q === 3 && rng.next() < 0.5)) {
          notes.push({ tick: t0 + q * beat, channel: 9, note: 36, velocity: v(115), length: beat / 4 });
        }
        if (q === 1 || q === 3)
          notes.push({ tick: t0 + q * beat, channel: 9, note: 38, velocity: v(105), length: beat / 4 });
        for (let e = 0; e < 2; e++) {
          notes.push({
            tick: t0 + q * beat + (e * beat) / 2,
            channel: 9,
            note: 42,
            velocity: v(70 + 20 * e),
            length: beat / 8,
          });
        }
      }
      if (section === 'chorus' && (b - 4) % 8 === 0)
        notes.push({ tick: t0, channel: 9, note: 49, velocity: v(110), length: beat });
    }
    // Bass: root on eighths (quarters in the intro).
    const root = chord[0]! - 24;
    const step = section === 'intro' ? beat : beat / 2;
    for (let t = 0; t < bar; t += step) {
      notes.push({ tick: t0 + t, channel: 1, note: root, velocity: v(100), length: step * 0.9 });
    }
    // Piano: chord on every beat; strings: sustained chord in choruses and the bridge.
    for (let q = 0; q < 4; q++) {
      for (const n of chord)
        notes.push({ tick: t0 + q * beat, channel: 2, note: n, velocity: v(72), length: beat * 0.8 });
    }
    if (section === 'chorus' || section === 'bridge') {
      for (const n of chord) notes.push({ tick: t0, channel: 3, note: n + 12, velocity: v(80), length: bar });
    }
    // Lead: a pentatonic-ish line in verses and choruses.
    if (section === 'verse' || section === 'chorus') {
      for (let q = 0; q < 8; q++) {
        if (rng.next() < 0.25) continue;
        const note = 69 + scale[Math.floor(rng.next() * scale.length)]! + (section === 'chorus' ? 12 : 0);
        notes.push({ tick: t0 + (q * beat) / 2, channel: 4, note, velocity: v(95), length: (beat / 2) * 0.9 });
      }
    }
  }
  const programs = new Map<number, number>([
    [1, 33], // electric bass (finger)
    [2, 0], // acoustic grand piano
    [3, 48], // string ensemble
    [4, 80], // square lead
  ]);
  return midiFile(notes, programs, bpm);
}
