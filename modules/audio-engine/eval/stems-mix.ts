/**
 * Evaluation of stem separation and mixing (part of `npm run eval:engine`).
 *
 * Separation: every song of EVAL_SONGS is rendered part by part (multitrack.ts), the mixture goes through the real
 * stems job in every mode, and each written stem is scored (SDR, separation.ts) against the sum of the true parts it
 * should contain, next to the floor (the mixture as the estimate) and the ceiling (oracle ideal ratio masks for the
 * same stems on the separator's STFT). Mixture consistency is measured on the written files. The demo song the
 * product synthesises (demo/synth.ts) is scored too, as material of a different kind that nothing was tuned on.
 *
 * Mixing: up to five parts of each song become WAV files (one at 48 kHz and one shortened, to exercise resampling and
 * alignment), with settings (a LEAD vocal, LEFT and RIGHT preferences, a BACKGROUND part, reverbs); the mix job's
 * `tracks/<name>.wav` are measured for loudness (each track as heard in the mix) and left/right balance, the mix for
 * loudness and true peak with ffmpeg's ebur128 (an independent meter).
 */
import { join } from 'node:path';
import { integratedLufs } from '../src/analysis/loudness';
import { synthesizeDemoSong } from '../src/demo/synth';
import { decodeAudio } from '../src/io/decode';
import { resamplePcm } from '../src/io/resample';
import { writeWav } from '../src/io/wav';
import { runJobInline } from '../src/job/run-inline';
import { type Pcm, frameCount } from '../src/pcm';
import { MODE_STEMS } from '../src/stems/catalog';
import type { MixResult } from '../src/mix/report';
import type { StemsResult } from '../src/stems/report';
import type { MusicalStyle, SeparatedStem, StemMode, TrackSettings } from '../src/types';
import { ffmpegLoudness } from './metrics';
import {
  DRUM_PIECES,
  EVAL_SONGS,
  type PartRole,
  type RenderedSong,
  type SongSpec,
  SUBSTEM_SONGS,
  renderMultitrack,
  sumParts,
} from './multitrack';
import { consistencyDb, oracleIrm, sdr } from './separation';

type Log = (message: string) => void;
const round = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : String(v));

/** The true parts each stem of each mode stands for. */
const STEM_ROLES: Record<StemMode, Partial<Record<SeparatedStem, PartRole[]>>> = {
  vocals: { vocals: ['vocals'], other: ['drums', 'bass', 'guitars', 'piano', 'keys', 'strings', 'brass'] },
  drums: { drums: ['drums'], other: ['vocals', 'bass', 'guitars', 'piano', 'keys', 'strings', 'brass'] },
  guitars: { guitars: ['guitars'], other: ['vocals', 'drums', 'bass', 'piano', 'keys', 'strings', 'brass'] },
  full: {
    vocals: ['vocals'],
    drums: ['drums'],
    bass: ['bass'],
    other: ['guitars', 'piano', 'keys', 'strings', 'brass'],
  },
};

export interface StemRow {
  song: string;
  tuning: boolean | null;
  mode: StemMode;
  stem: SeparatedStem;
  sdr: number;
  floor: number;
  ceiling: number;
}

export interface SongSeparation {
  song: string;
  mode: StemMode;
  seconds: number;
  jobSeconds: number;
  consistencyDb: number;
}

export interface MixRow {
  song: string;
  track: string;
  presence: string;
  pan: string;
  lufsInMix: number;
  balanceDb: number;
}

export interface MixSong {
  song: string;
  style: MusicalStyle;
  leadOverNormalLu: number | null;
  sidesOk: boolean;
  mixLufs: number;
  mixTpDbtp: number;
  targetLufs: number;
  seconds: number;
  tracksSeconds: number;
}

const median = (v: number[]) => {
  const s = v.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The real stems job on `input` (the song's mixture) in `mode`, its outputs under `dir`. */
async function stemsJob(dir: string, name: string, input: string, mode: StemMode, log: Log): Promise<StemsResult> {
  log(`eval: stems ${name} --mode ${mode}`);
  return (await runJobInline({
    kind: 'stems',
    input,
    outDir: join(dir, `stems-${name}-${mode}`),
    options: { mode },
  })) as StemsResult;
}

async function scoreSong(
  dir: string,
  name: string,
  tuning: boolean | null,
  mixture: Pcm,
  truthOf: (roles: PartRole[]) => Pcm,
  modes: readonly StemMode[],
  log: Log,
): Promise<{ rows: StemRow[]; runs: SongSeparation[]; outputs: Map<StemMode, Record<string, string>> }> {
  const rows: StemRow[] = [];
  const runs: SongSeparation[] = [];
  const outputs = new Map<StemMode, Record<string, string>>();
  const input = join(dir, `${name}-mixture.wav`);
  await writeWav(input, mixture, { encoding: 'float32' });
  for (const mode of modes) {
    const t0 = performance.now();
    const result = await stemsJob(dir, name, input, mode, log);
    const seconds = (performance.now() - t0) / 1000;
    outputs.set(mode, result.outputs.stems);
    const stems = MODE_STEMS[mode];
    const estimates: Pcm[] = [];
    const truths: Pcm[] = [];
    for (const stem of stems) {
      const file = result.outputs.stems[stem];
      if (!file) throw new Error(`${mode} produced no ${stem}`);
      estimates.push((await decodeAudio(file)).pcm);
      truths.push(truthOf(STEM_ROLES[mode][stem]!));
    }
    const oracle = await oracleIrm(mixture, truths);
    stems.forEach((stem, j) =>
      rows.push({
        song: name,
        tuning,
        mode,
        stem,
        sdr: sdr(estimates[j]!, truths[j]!),
        floor: sdr(mixture, truths[j]!),
        ceiling: sdr(oracle[j]!, truths[j]!),
      }),
    );
    runs.push({
      song: name,
      mode,
      seconds: result.durationSec,
      jobSeconds: seconds,
      consistencyDb: consistencyDb(mixture, estimates),
    });
  }
  return { rows, runs, outputs };
}

/** The sub-stems of a mode (audio-services section 3), as the issue-29 evaluation scores them. */
export const SUBSTEMS = {
  vocals: ['lead_vocals', 'backing_vocals'],
  drums: DRUM_PIECES,
  guitars: ['acoustic_guitars', 'electric_guitars'],
} as const satisfies Partial<Record<StemMode, readonly string[]>>;
export type SubstemMode = keyof typeof SUBSTEMS;

/** A sub-stem's SDR in its mode (NaN while the mode does not write it), with its floor and ceiling. */
export interface SubstemRow {
  song: string;
  tuning: boolean;
  mode: SubstemMode;
  stem: string;
  sdr: number;
  floor: number;
  ceiling: number;
  /**
   * The ceiling of splitting the stem the mode writes today (vocals, drums, guitars) rather than the mixture: oracle
   * masks on that stem. Under 3 dB, no split of today's stem can reach the target: the sub-stem needs masks of its own
   * on the mixture.
   */
  fromStem: number;
}

/** `whole` minus `parts`, sample by sample. */
function without(whole: Pcm, parts: readonly Pcm[]): Pcm {
  return {
    sampleRate: whole.sampleRate,
    channels: whole.channels.map((channel, c) => {
      const rest = Float32Array.from(channel);
      for (const part of parts) {
        const x = part.channels[c]!;
        for (let i = 0; i < rest.length; i++) rest[i] = rest[i]! - x[i]!;
      }
      return rest;
    }),
  };
}

/**
 * A mode's sub-stems against their parts rendered alone (multitrack.ts), and `other` as the mixture without them (the
 * rest of the song). The ceiling is the oracle ideal ratio mask of those sources on the mixture.
 */
async function scoreSubstems(
  song: RenderedSong,
  mode: SubstemMode,
  truth: ReadonlyMap<string, Pcm>,
  written: Record<string, string> | undefined,
): Promise<SubstemRow[]> {
  const { mixture } = song;
  const other = without(mixture, [...truth.values()]);
  const stems = [...truth.keys(), 'other'];
  const truths = [...truth.values(), other];
  const oracle = await oracleIrm(mixture, truths);
  const parentFile = written?.[mode];
  let fromStem: Pcm[] | null = null;
  if (parentFile) {
    const parent = (await decodeAudio(parentFile)).pcm;
    fromStem = await oracleIrm(parent, [...truth.values(), without(parent, [...truth.values()])]);
  }
  // Until the mode writes its sub-stems, its `other` holds them too, and is not scored against this one.
  const split = SUBSTEMS[mode].some((stem) => written?.[stem]);
  const rows: SubstemRow[] = [];
  for (const [j, stem] of stems.entries()) {
    const file = split ? written?.[stem] : undefined;
    rows.push({
      song: song.spec.name,
      tuning: song.spec.tuning,
      mode,
      stem,
      sdr: file ? sdr((await decodeAudio(file)).pcm, truths[j]!) : NaN,
      floor: sdr(mixture, truths[j]!),
      ceiling: sdr(oracle[j]!, truths[j]!),
      fromStem: fromStem && stem !== 'other' ? sdr(fromStem[j]!, truths[j]!) : NaN,
    });
  }
  return rows;
}

/** Each mode's sub-stem table: estimate / floor / ceiling per song, and the medians. */
function substemLines(rows: readonly SubstemRow[]): string[] {
  const lines: string[] = [];
  for (const mode of Object.keys(SUBSTEMS) as SubstemMode[]) {
    const of = rows.filter((r) => r.mode === mode);
    if (of.length === 0) continue;
    const stems = [...SUBSTEMS[mode], 'other'];
    const dash = (x: number) => (Number.isNaN(x) ? '-' : round(x));
    const cell = (r: SubstemRow | undefined) =>
      r ? `${dash(r.sdr)} / ${round(r.floor)} / ${round(r.ceiling)} / ${dash(r.fromStem)}` : '';
    lines.push(
      `**${mode} mode, the sub-stems**: estimate / floor / ceiling / ceiling from today's ${mode} stem (\`-\`: not written)`,
      '',
      `| song | ${stems.join(' | ')} |`,
      `|---|${stems.map(() => '---').join('|')}|`,
    );
    for (const song of [...new Set(of.map((r) => r.song))]) {
      const tag = of.find((r) => r.song === song)!.tuning ? '' : ' (held out)';
      const cells = stems.map((stem) => cell(of.find((r) => r.song === song && r.stem === stem)));
      lines.push(`| ${song}${tag} | ${cells.join(' | ')} |`);
    }
    const med = (stem: string, key: 'sdr' | 'floor' | 'ceiling' | 'fromStem') =>
      dash(median(of.filter((r) => r.stem === stem).map((r) => r[key])));
    const medians = stems.map(
      (stem) => `**${med(stem, 'sdr')}** / ${med(stem, 'floor')} / ${med(stem, 'ceiling')} / ${med(stem, 'fromStem')}`,
    );
    lines.push(`| **median** | ${medians.join(' | ')} |`, '');
  }
  return lines;
}

/** The parts of a song that make each of its sub-stems. */
function substemTruth(song: RenderedSong, stems: readonly string[]): Map<string, Pcm> {
  const truth = new Map<string, Pcm>();
  for (const stem of stems) {
    const parts = song.parts.filter((p) => p.part.substem === stem);
    if (parts.length > 0)
      truth.set(
        stem,
        sumParts(song, (part) => part.substem === stem),
      );
  }
  return truth;
}

export async function evaluateSeparation(
  dir: string,
  quick: boolean,
  log: Log,
): Promise<{ lines: string[]; rows: StemRow[]; runs: SongSeparation[]; substems: SubstemRow[] }> {
  const songs = quick ? EVAL_SONGS.filter((s) => s.tuning).slice(0, 2) : EVAL_SONGS;
  const modes: StemMode[] = ['vocals', 'drums', 'guitars', 'full'];
  const rows: StemRow[] = [];
  const runs: SongSeparation[] = [];
  const substems: SubstemRow[] = [];
  for (const spec of songs) {
    log(`eval: rendering ${spec.name} part by part with fluidsynth`);
    const song = await renderMultitrack(dir, spec);
    const hasGuitar = song.parts.some((p) => p.part.role === 'guitars');
    const r = await scoreSong(
      dir,
      spec.name,
      spec.tuning,
      song.mixture,
      (roles) => sumParts(song, roles),
      hasGuitar ? modes : modes.filter((m) => m !== 'guitars'),
      log,
    );
    rows.push(...r.rows);
    runs.push(...r.runs);
    substems.push(...(await scoreSubstems(song, 'drums', song.drumPieces, r.outputs.get('drums'))));
  }
  // The sub-stems of the vocals and guitars modes, on songs of their own (lead and backing voices, an acoustic and an
  // electric guitar), kept apart so that the four stems' figures stay those of the songs above.
  for (const spec of quick ? SUBSTEM_SONGS.slice(0, 1) : SUBSTEM_SONGS) {
    log(`eval: rendering ${spec.name} part by part with fluidsynth`);
    const song = await renderMultitrack(dir, spec);
    const input = join(dir, `${spec.name}-mixture.wav`);
    await writeWav(input, song.mixture, { encoding: 'float32' });
    for (const mode of ['vocals', 'guitars'] as const) {
      const result = await stemsJob(dir, spec.name, input, mode, log);
      substems.push(...(await scoreSubstems(song, mode, substemTruth(song, SUBSTEMS[mode]), result.outputs.stems)));
    }
  }
  // The product's own demo song (synthesised, not GM): vocals, drums, bass, keys.
  log('eval: the synthesised demo song');
  const demo = synthesizeDemoSong({ seconds: 24, sampleRate: 44100, seed: 1 });
  const demoTruth = (roles: PartRole[]): Pcm => {
    const n = frameCount(demo.mixture);
    const out: Pcm = { sampleRate: 44100, channels: [new Float32Array(n), new Float32Array(n)] };
    const map: Record<string, Pcm | undefined> = {
      vocals: demo.stems.vocals,
      drums: demo.stems.drums,
      bass: demo.stems.bass,
      keys: demo.stems.keys,
    };
    for (const role of roles) {
      const p = map[role];
      if (!p) continue;
      for (let c = 0; c < 2; c++)
        for (let i = 0; i < n; i++) out.channels[c]![i] = out.channels[c]![i]! + p.channels[c]![i]!;
    }
    return out;
  };
  const d = await scoreSong(dir, 'demo-song', null, demo.mixture, demoTruth, ['vocals', 'drums', 'full'], log);
  rows.push(...d.rows);
  runs.push(...d.runs);

  const lines: string[] = [];
  lines.push('### Stem separation: SDR per stem (dB), estimate / floor (mixture) / ceiling (oracle IRM)', '');
  const songNames = [...new Set(rows.map((r) => r.song))];
  for (const mode of modes) {
    const modeRows = rows.filter((r) => r.mode === mode);
    if (modeRows.length === 0) continue;
    const stems = MODE_STEMS[mode];
    lines.push(`**mode ${mode}**`, '');
    lines.push(`| song | ${stems.join(' | ')} |`, `|---|${stems.map(() => '---').join('|')}|`);
    for (const song of songNames) {
      const cells = stems.map((stem) => {
        const r = modeRows.find((x) => x.song === song && x.stem === stem);
        return r ? `${round(r.sdr)} / ${round(r.floor)} / ${round(r.ceiling)}` : '';
      });
      if (cells.every((c) => c === '')) continue;
      const tag = rows.find((x) => x.song === song)?.tuning;
      lines.push(
        `| ${song}${tag === false ? ' (held out)' : tag === null ? ' (demo, synthesised)' : ''} | ${cells.join(' | ')} |`,
      );
    }
    const gm = modeRows.filter((r) => r.tuning !== null);
    const med = (stem: SeparatedStem, key: 'sdr' | 'floor' | 'ceiling', filter: (r: StemRow) => boolean = () => true) =>
      round(median(gm.filter((r) => r.stem === stem && filter(r)).map((r) => r[key])));
    lines.push(
      `| **median, GM songs** | ${stems.map((s) => `**${med(s, 'sdr')}** / ${med(s, 'floor')} / ${med(s, 'ceiling')}`).join(' | ')} |`,
    );
    lines.push(`| median, tuning songs | ${stems.map((s) => med(s, 'sdr', (r) => r.tuning === true)).join(' | ')} |`);
    lines.push(
      `| median, held-out songs | ${stems.map((s) => med(s, 'sdr', (r) => r.tuning === false)).join(' | ')} |`,
      '',
    );
  }
  lines.push(...substemLines(substems));
  lines.push(
    '| song | mode | seconds of audio | job seconds | real-time factor | mixture consistency dB (written files) |',
  );
  lines.push('|---|---|---|---|---|---|');
  for (const r of runs) {
    lines.push(
      `| ${r.song} | ${r.mode} | ${round(r.seconds, 1)} | ${round(r.jobSeconds, 1)} | ${round(r.jobSeconds / r.seconds, 3)} | ${round(r.consistencyDb, 1)} |`,
    );
  }
  return { lines, rows, runs, substems };
}

/**
 * The mixing evaluation's tracks of one song, written as WAV files under `dir`: vocals, drums, bass and the first two
 * other parts (one at 48 kHz, one 3 s shorter), with LEAD, LEFT, RIGHT, BACKGROUND and reverb settings.
 */
export async function mixInputs(
  dir: string,
  spec: SongSpec,
  song: RenderedSong,
): Promise<Array<{ path: string; name: string; settings: TrackSettings }>> {
  // Five tracks at most: vocals, drums, bass and the first two other parts.
  const chosen = [
    ...song.parts.filter((p) => ['vocals', 'drums', 'bass'].includes(p.part.role)),
    ...song.parts.filter((p) => !['vocals', 'drums', 'bass'].includes(p.part.role)).slice(0, 2),
  ];
  const others = chosen.filter((p) => !['vocals', 'drums', 'bass'].includes(p.part.role));
  const inputs: Array<{ path: string; name: string; settings: TrackSettings }> = [];
  for (const [k, { part, pcm }] of chosen.entries()) {
    const name = `${part.name}.wav`;
    const path = join(dir, `mixin-${spec.name}-${name}`);
    let audio = pcm;
    if (k === 1) audio = await resamplePcm(pcm, 48000); // a track at another rate
    if (k === 2)
      audio = { sampleRate: pcm.sampleRate, channels: pcm.channels.map((c) => c.slice(0, c.length - 3 * 44100)) }; // shorter
    await writeWav(path, audio, { encoding: 'pcm24', seed: k + 1 });
    const settings: TrackSettings = {};
    if (part.role === 'vocals') {
      settings.presenceSetting = 'LEAD';
      settings.reverbPreference = 'MEDIUM';
    } else if (part.role === 'drums' || part.role === 'bass') {
      settings.reverbPreference = part.role === 'drums' ? 'LOW' : 'NONE';
    } else if (part === others[0]?.part) {
      settings.panPreference = 'LEFT';
      settings.reverbPreference = 'LOW';
    } else if (part === others[1]?.part) {
      settings.panPreference = 'RIGHT';
      settings.presenceSetting = 'BACKGROUND';
      settings.reverbPreference = 'HIGH';
    }
    inputs.push({ path, name, settings });
  }
  return inputs;
}

const STYLE_OF: Record<SongSpec['style'], MusicalStyle> = {
  pop: 'POP',
  rock: 'ROCK_INDIE',
  highlife: 'OTHER',
  duet: 'ACOUSTIC',
};

export async function evaluateMixing(
  dir: string,
  quick: boolean,
  log: Log,
): Promise<{ lines: string[]; rows: MixRow[]; songs: MixSong[] }> {
  const specs = quick ? EVAL_SONGS.slice(0, 1) : EVAL_SONGS;
  const rows: MixRow[] = [];
  const songs: MixSong[] = [];
  for (const spec of specs) {
    const inputs = await mixInputs(dir, spec, await renderMultitrack(dir, spec));
    const style = STYLE_OF[spec.style];
    log(`eval: mix ${spec.name} (${inputs.length} tracks, ${style})`);
    const t0 = performance.now();
    const result = (await runJobInline({
      kind: 'mix',
      inputs,
      outDir: join(dir, `mix-${spec.name}`),
      options: { style, sampleRate: 44100 },
    })) as MixResult;
    const seconds = (performance.now() - t0) / 1000;
    const measured = await ffmpegLoudness(result.outputs.mix);
    const levels: Array<{ presence: string; lufs: number; pan: string; balance: number }> = [];
    for (const t of result.report.tracks) {
      const pcm = (await decodeAudio(result.outputs.tracks[t.name]!)).pcm;
      const lufs = integratedLufs(pcm.channels, pcm.sampleRate);
      let el = 0;
      let er = 0;
      for (const v of pcm.channels[0]!) el += v * v;
      for (const v of pcm.channels[1]!) er += v * v;
      const balance = 10 * Math.log10(el / er);
      levels.push({ presence: t.settings.presenceSetting, lufs, pan: t.settings.panPreference, balance });
      rows.push({
        song: spec.name,
        track: t.name,
        presence: t.settings.presenceSetting,
        pan: t.settings.panPreference,
        lufsInMix: lufs,
        balanceDb: balance,
      });
    }
    const leads = levels.filter((l) => l.presence === 'LEAD').map((l) => l.lufs);
    const normals = levels.filter((l) => l.presence === 'NORMAL').map((l) => l.lufs);
    const sidesOk = levels.every((l) => (l.pan !== 'LEFT' || l.balance >= 3) && (l.pan !== 'RIGHT' || l.balance <= -3));
    songs.push({
      song: spec.name,
      style,
      leadOverNormalLu: leads.length && normals.length ? Math.min(...leads) - Math.max(...normals) : null,
      sidesOk,
      mixLufs: measured.integratedLufs,
      mixTpDbtp: measured.truePeakDbtp,
      targetLufs: result.report.settings.targetLufs,
      seconds: result.durationSec,
      tracksSeconds: seconds,
    });
  }
  const lines: string[] = [];
  lines.push('### Mixing: each track as heard in the mix (tracks/<name>.wav)', '');
  lines.push('Balance = left energy over right energy, dB (positive: left).', '');
  lines.push(
    '| song | track | presence | pan preference | loudness in the mix LUFS | L/R balance dB |',
    '|---|---|---|---|---|---|',
  );
  for (const r of rows) {
    lines.push(
      `| ${r.song} | ${r.track} | ${r.presence} | ${r.pan} | ${round(r.lufsInMix)} | ${round(r.balanceDb, 1)} |`,
    );
  }
  lines.push(
    '',
    '| song | style | LEAD minus loudest NORMAL LU | LEFT/RIGHT on their side (>= 3 dB) | mix LUFS (ffmpeg) | target | mix dBTP (ffmpeg) | job seconds | audio seconds |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|');
  for (const s of songs) {
    lines.push(
      `| ${s.song} | ${s.style} | ${s.leadOverNormalLu === null ? '' : round(s.leadOverNormalLu)} | ${s.sidesOk ? 'yes' : 'NO'} | ${round(s.mixLufs)} | ${s.targetLufs} | ${round(s.mixTpDbtp)} | ${round(s.tracksSeconds, 1)} | ${round(s.seconds, 1)} |`,
    );
  }
  return { lines, rows, songs };
}

/** Target lines for the summary table. */
export function separationTargets(rows: StemRow[], runs: SongSeparation[]): string[] {
  const gm = rows.filter((r) => r.mode === 'full' && r.tuning !== null);
  const m = (stem: SeparatedStem) => median(gm.filter((r) => r.stem === stem).map((r) => r.sdr));
  const worstConsistency = Math.min(...runs.map((r) => r.consistencyDb));
  const v = m('vocals');
  const others = (['drums', 'bass', 'other'] as const).map((s) => [s, m(s)] as const);
  return [
    `| full mode, median SDR over the GM songs: vocals >= 6 dB | ${round(v)} dB | ${v >= 6 ? 'yes' : 'NO'} |`,
    ...others.map(([s, x]) => `| full mode, median SDR: ${s} >= 3 dB | ${round(x)} dB | ${x >= 3 ? 'yes' : 'NO'} |`),
    `| mixture consistency > 40 dB (every song and mode, written files) | worst ${round(worstConsistency, 1)} dB | ${worstConsistency > 40 ? 'yes' : 'NO'} |`,
  ];
}

/**
 * Issue 29's target for each sub-stem, on the medians over the songs: at least 3 dB (6 for the lead vocals) and at
 * least halfway (in dB) from the floor to the ceiling; within 2 dB of the ceiling where the ceiling is under 5 dB.
 */
export function substemTargets(rows: readonly SubstemRow[]): string[] {
  return (Object.keys(SUBSTEMS) as SubstemMode[]).flatMap((mode) =>
    SUBSTEMS[mode].map((stem) => {
      const of = rows.filter((r) => r.mode === mode && r.stem === stem);
      const x = median(of.map((r) => r.sdr));
      const floor = median(of.map((r) => r.floor));
      const ceiling = median(of.map((r) => r.ceiling));
      const least = stem === 'lead_vocals' ? 6 : 3;
      const needed = ceiling < 5 ? Math.min(least, ceiling - 2) : Math.max(least, (floor + ceiling) / 2);
      const met = Number.isFinite(x) && x >= needed;
      const measured = Number.isFinite(x) ? `${round(x)} dB` : 'not separated yet';
      return `| ${mode} mode, median SDR: ${stem} >= ${round(needed)} dB (floor ${round(floor)}, ceiling ${round(ceiling)}) | ${measured} | ${met ? 'yes' : 'NO'} |`;
    }),
  );
}

export function mixingTargets(songs: MixSong[]): string[] {
  const lead = Math.min(...songs.map((s) => s.leadOverNormalLu ?? Infinity));
  const sides = songs.every((s) => s.sidesOk);
  const err = Math.max(...songs.map((s) => Math.abs(s.mixLufs - s.targetLufs)));
  const tp = Math.max(...songs.map((s) => s.mixTpDbtp));
  return [
    `| LEAD tracks at least 3 LU above NORMAL ones in the mix | worst ${round(lead)} LU | ${lead >= 3 ? 'yes' : 'NO'} |`,
    `| LEFT / RIGHT preferences land on their side | ${sides ? 'all' : 'not all'} | ${sides ? 'yes' : 'NO'} |`,
    `| mix within 0.5 LU of its target at or below -1.0 dBTP (ffmpeg ebur128) | worst error ${round(err)} LU, highest ${round(tp)} dBTP | ${err <= 0.5 && tp <= -1 ? 'yes' : 'NO'} |`,
  ];
}
