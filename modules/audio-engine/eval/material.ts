/**
 * Evaluation material built with the tools the issue names: fluidsynth with the General MIDI sound font for music,
 * espeak-ng for speech, sox for noise. Missing tools fail with ENGINE.TOOL_MISSING and an install hint.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { ToolMissingError } from '../src/errors';
import { decodeAudio } from '../src/io/decode';
import type { Pcm } from '../src/pcm';
import { popSong } from './midi';

const run = promisify(execFile);

export const SOUND_FONT = process.env.KORA_SOUNDFONT ?? '/usr/share/sounds/sf2/FluidR3_GM.sf2';

export function which(tool: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, tool);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // keep looking
    }
  }
  throw new ToolMissingError(
    tool,
    `apt-get install -y ${tool === 'fluidsynth' ? 'fluidsynth fluid-soundfont-gm' : tool}`,
  );
}

/** Renders the pop song of `bars` bars to a 44.1 kHz stereo WAV with fluidsynth. */
export async function renderSong(dir: string, name: string, bars: number, seed = 1): Promise<string> {
  const midi = join(dir, `${name}.mid`);
  const wav = join(dir, `${name}.wav`);
  await writeFile(midi, popSong(bars, 112, seed));
  try {
    accessSync(SOUND_FONT, constants.R_OK);
  } catch {
    throw new ToolMissingError('the GM sound font', `apt-get install -y fluid-soundfont-gm (or set KORA_SOUNDFONT)`);
  }
  await run(which('fluidsynth'), ['-ni', '-g', '0.5', '-r', '44100', '-F', wav, SOUND_FONT, midi]);
  return wav;
}

export const SENTENCES = [
  'Welcome back to the show. Today we talk about recording good audio at home.',
  'The first rule is simple: put the microphone close to the voice and away from the computer fan.',
  'A small room with soft furniture sounds better than a large empty kitchen.',
  'Speak across the microphone, not straight into it, and the plosives will stay under control.',
  'Set the gain so that the loudest laugh still leaves some headroom before clipping.',
  'Record a few seconds of silence first, so that noise reduction knows what the room sounds like.',
  'Finally, listen back on headphones and on a phone speaker before you publish the episode.',
  'Thank you for listening, and see you next week for another episode.',
];

/** Clean speech from espeak-ng (one voice per sentence, alternating), as 48 kHz mono PCM. */
export async function speechCorpus(dir: string): Promise<Pcm> {
  const espeak = which('espeak-ng');
  const parts: Float32Array[] = [];
  const voices = ['en-us', 'en-gb', 'en-us+f3', 'fr'];
  for (let i = 0; i < SENTENCES.length; i++) {
    const wav = join(dir, `sentence-${i}.wav`);
    const voice = voices[i % 2 === 0 ? 0 : 2]!;
    await run(espeak, ['-v', voice, '-s', '160', '-w', wav, SENTENCES[i]!]);
    const { pcm } = await decodeAudio(wav, { sampleRate: 48000, channels: 1 });
    parts.push(pcm.channels[0]!, new Float32Array(48000 * 0.4)); // 0.4 s pause between sentences
  }
  const total = parts.reduce((a, p) => a + p.length, 0);
  const out = new Float32Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { sampleRate: 48000, channels: [out] };
}

/** White or pink noise of `seconds` at 48 kHz mono from sox's synth (`-R`: repeatable, the same on every run). */
export async function soxNoise(dir: string, kind: 'white' | 'pink', seconds: number): Promise<Float32Array> {
  const wav = join(dir, `noise-${kind}.wav`);
  const args = ['-R', '-n', '-r', '48000', '-c', '1', '-b', '32', '-e', 'floating-point', wav];
  await run(which('sox'), [...args, 'synth', String(seconds), `${kind}noise`]);
  const { pcm } = await decodeAudio(wav);
  return pcm.channels[0]!;
}
