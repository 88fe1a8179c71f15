/**
 * The stem-separation job: decode at the input's own rate -> separate (the configured neural model for the stem it
 * provides, the classical separator for the rest) -> `<stem>.wav` for each stem and `original.wav` (24-bit; 32-bit
 * float when a stem exceeds full scale, so no sample is clipped and the stems still add up to the input) -> a 30 s
 * MP3 of each stem and of the original, all cut at the window the mastering preview would choose on the mixture ->
 * levels -> `stems.json`. Outputs are written under temporary names and renamed together at the end.
 */
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { measureLoudness } from '../analysis/loudness';
import { TooShortError } from '../errors';
import { encodeMp3 } from '../io/encode';
import { OutputSet } from '../io/outputs';
import { resamplePcm } from '../io/resample';
import { writeWav } from '../io/wav';
import type { StageContext, Tick } from '../stage/context';
import { assertOneOf, inputFacts, loadInput } from '../stage/input';
import { ENGINE_VERSION, truePeaksDb } from '../master/master';
import { choosePreview, extractPreview } from '../master/preview';
import { reportJson } from '../master/report';
import { type Pcm, frameCount } from '../pcm';
import { STEM_MODES, type SeparatedStem, type StemFile, type StemMode, type StemsJob } from '../types';
import { type ClassicalDecisions, separateClassical } from './classical';
import { MODE_STEMS, sortStems } from './catalog';
import { type MdxConfig, configuredModel, runMdx } from './mdx';
import { CLASSICAL_NOTE, NEURAL_NOTE, type StemEntry, type StemsReport, type StemsResult } from './report';

export const STEM_FILES = {
  report: 'stems.json',
  original: 'original.wav',
  stem: (name: string) => `${name}.wav`,
  preview: (name: string) => `preview/${name}.mp3`,
} as const;

/** Energy over the energy of the difference, dB (how well `parts` add up to `whole`). */
export function consistencyDb(whole: Pcm, parts: readonly Pcm[]): number {
  const n = frameCount(whole);
  let num = 0;
  let den = 0;
  for (let c = 0; c < whole.channels.length; c++) {
    const m = whole.channels[c]!;
    const cols = parts.map((p) => p.channels[Math.min(c, p.channels.length - 1)]!);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (const col of cols) s += col[i] ?? 0;
      num += m[i]! * m[i]!;
      den += (m[i]! - s) ** 2;
    }
  }
  return den === 0 ? Infinity : 10 * Math.log10(num / den);
}

function subtract(a: Pcm, b: Pcm): Pcm {
  return { sampleRate: a.sampleRate, channels: a.channels.map((x, c) => x.map((v, i) => v - b.channels[c]![i]!)) };
}

function energy(pcm: Pcm): number {
  let e = 0;
  for (const ch of pcm.channels) for (let i = 0; i < ch.length; i++) e += ch[i]! * ch[i]!;
  return e;
}

export interface Separation {
  stems: Map<SeparatedStem, Pcm>;
  source: Map<SeparatedStem, 'classical' | 'neural'>;
  classical: ClassicalDecisions | null;
  model: { path: string; config: MdxConfig } | null;
}

/**
 * Separates `pcm` for `mode`. With a model configured (STEMS_MODEL) its stem replaces the classical estimate of that
 * stem and the classical separator works on the remainder; the stems always sum to `pcm`.
 */
export async function separate(pcm: Pcm, mode: StemMode, tick: Tick, ctx?: StageContext): Promise<Separation> {
  const wanted = MODE_STEMS[mode];
  const model = await configuredModel();
  const source = new Map<SeparatedStem, 'classical' | 'neural'>();
  let neural: { stem: SeparatedStem; pcm: Pcm } | null = null;
  if (model) {
    const primary = model.config.primary;
    const stem: SeparatedStem = primary === 'instrumental' ? 'vocals' : primary;
    const usable = wanted.includes(stem) || (mode === 'full' && (stem === 'piano' || stem === 'guitars'));
    if (usable && stem !== 'other') {
      const atModelRate = await resamplePcm(pcm, model.config.sampleRate, ctx);
      const out = await runMdx(model.path, model.config, atModelRate, (f) => tick(0.6 * f));
      let estimate = await resamplePcm(out, pcm.sampleRate, ctx);
      if (primary === 'instrumental') estimate = subtract(pcm, estimate);
      // Full mode lists piano and guitars only where present: at least 1 % of the mixture's energy.
      if (!(mode === 'full' && (stem === 'piano' || stem === 'guitars') && energy(estimate) < 0.01 * energy(pcm))) {
        neural = { stem, pcm: estimate };
      }
    }
  }
  const stems = new Map<SeparatedStem, Pcm>();
  let classical: ClassicalDecisions | null = null;
  const rest = neural ? subtract(pcm, neural.pcm) : pcm;
  const remaining = wanted.filter((s) => s !== 'other' && s !== neural?.stem);
  if (remaining.length > 0) {
    const from = neural ? 0.6 : 0;
    const result = await separateClassical(rest, remaining, (f) => tick(from + (1 - from) * f));
    classical = result.decisions;
    for (const [name, stem] of result.stems) {
      stems.set(name, stem);
      source.set(name, 'classical');
    }
  } else {
    stems.set('other', rest);
    source.set('other', neural ? 'neural' : 'classical');
  }
  if (neural) {
    stems.set(neural.stem, neural.pcm);
    source.set(neural.stem, 'neural');
  }
  return { stems, source, classical, model: neural ? model : null };
}

const dbOf = (x: number) => (x > 0 ? 10 * Math.log10(x) : -Infinity);

export async function runStems(job: StemsJob, ctx: StageContext): Promise<StemsResult> {
  const mode = assertOneOf(job.options?.mode, STEM_MODES, 'mode');
  ctx.plan({ decode: 3, separate: 60, levels: 6, write: 8, preview: 10, report: 1 });
  const outputs = new OutputSet(job.outDir, ctx);
  try {
    await outputs.init();
    const input = await ctx.stage('decode', (tick) =>
      loadInput(job.input, { claimedType: job.claimedType, sampleRate: 'native', maxChannels: 2, ctx, tick }),
    );
    const pcm = input.pcm;
    const fs = pcm.sampleRate;
    const durationSec = frameCount(pcm) / fs;
    if (durationSec < 1) throw new TooShortError(1, durationSec);
    const separation = await ctx.stage('separate', (tick) => separate(pcm, mode, tick, ctx));
    const order = sortStems([...separation.stems.keys()]);
    const total = energy(pcm);
    const levels = await ctx.stage('levels', async (tick) => {
      const out = new Map<SeparatedStem, { lufs: number; tp: number; rms: number; share: number; peak: number }>();
      let k = 0;
      for (const name of order) {
        const stem = separation.stems.get(name)!;
        const e = energy(stem);
        let peak = 0;
        for (const ch of stem.channels) for (let i = 0; i < ch.length; i++) peak = Math.max(peak, Math.abs(ch[i]!));
        const tp = Math.max(...(await truePeaksDb(stem, (f) => tick((k + f) / order.length))));
        out.set(name, {
          lufs: measureLoudness(stem.channels, fs).integratedLufs,
          tp,
          rms: dbOf(e / (stem.channels.length * frameCount(stem))),
          share: total > 0 ? dbOf(e / total) : -Infinity,
          peak,
        });
        k++;
      }
      return out;
    });
    const consistency = consistencyDb(pcm, [...separation.stems.values()]);
    const encodingOf = (p: number): 'pcm24' | 'float32' => (p >= 1 ? 'float32' : 'pcm24');
    let originalPeak = 0;
    for (const ch of pcm.channels)
      for (let i = 0; i < ch.length; i++) originalPeak = Math.max(originalPeak, Math.abs(ch[i]!));
    const stemPaths = new Map(order.map((name) => [name, outputs.temp(STEM_FILES.stem(name))]));
    const originalPath = outputs.temp(STEM_FILES.original);
    await ctx.stage('write', async (tick) => {
      let k = 0;
      for (const name of order) {
        const encoding = encodingOf(levels.get(name)!.peak);
        await writeWav(stemPaths.get(name)!, separation.stems.get(name)!, {
          encoding,
          seed: k + 1,
          tick: (f) => tick((k + f) / (order.length + 1)),
        });
        k++;
      }
      await writeWav(originalPath, pcm, {
        encoding: encodingOf(originalPeak),
        seed: 99,
        tick: (f) => tick((k + f) / (order.length + 1)),
      });
    });
    const window = choosePreview(pcm);
    const previewPaths = new Map([...order, 'original'].map((name) => [name, outputs.temp(STEM_FILES.preview(name))]));
    await ctx.stage('preview', async (tick) => {
      let k = 0;
      for (const name of [...order, 'original'] as const) {
        const source = name === 'original' ? pcm : separation.stems.get(name)!;
        await encodeMp3(extractPreview(source, window), previewPaths.get(name)!, ctx);
        await tick(++k / (order.length + 1));
      }
    });
    const entries: StemEntry[] = order.map((name) => {
      const l = levels.get(name)!;
      return {
        name,
        file: STEM_FILES.stem(name),
        preview: STEM_FILES.preview(name),
        durationSec,
        integratedLufs: l.lufs,
        truePeakDbtp: l.tp,
        rmsDbfs: l.rms,
        energyShareDb: l.share,
        source: separation.source.get(name) ?? 'classical',
        encoding: encodingOf(l.peak),
      };
    });
    const neural = separation.model;
    const kind = neural ? (separation.classical ? 'neural+classical' : 'neural') : 'classical';
    const report: StemsReport = {
      engine: ENGINE_VERSION,
      mode,
      input: inputFacts(input, { sampleRate: fs, channels: pcm.channels.length }),
      sampleRate: fs,
      channels: pcm.channels.length,
      durationSec,
      order,
      stems: entries,
      original: { file: STEM_FILES.original, preview: STEM_FILES.preview('original') },
      preview: window,
      mixtureConsistencyDb: Number.isFinite(consistency) ? Math.round(consistency * 10) / 10 : consistency,
      separator: {
        kind,
        model: neural
          ? {
              file: basename(neural.path),
              primary: neural.config.primary,
              nFft: neural.config.nFft,
              dimF: neural.config.dimF,
              dimT: neural.config.dimT,
              hop: neural.config.hop,
            }
          : null,
        classical: separation.classical,
      },
      note: neural ? NEURAL_NOTE : CLASSICAL_NOTE,
      timings: ctx.timings,
    };
    const reportPath = outputs.temp(STEM_FILES.report);
    await ctx.stage('report', () => writeFile(reportPath, reportJson(report)));
    const done = await outputs.commit();
    const stems: StemFile[] = entries.map((e) => ({
      name: e.name,
      path: done[e.file]!,
      preview: done[e.preview]!,
      durationSec: e.durationSec,
      integratedLufs: e.integratedLufs,
      truePeakDbtp: e.truePeakDbtp,
      rmsDbfs: e.rmsDbfs,
      energyShareDb: e.energyShareDb,
      source: e.source,
    }));
    const previews: Record<string, string> = {};
    for (const name of [...order, 'original']) previews[name] = done[STEM_FILES.preview(name)]!;
    return {
      kind: 'stems',
      probe: input.probe,
      mode,
      stems,
      outputs: {
        stems: Object.fromEntries(stems.map((s) => [s.name, s.path])),
        original: done[STEM_FILES.original]!,
        previews,
        report: done[STEM_FILES.report]!,
      },
      report,
      durationSec,
      timings: ctx.timings,
    };
  } catch (error) {
    await outputs.discard();
    throw error;
  }
}
