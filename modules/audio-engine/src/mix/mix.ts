/**
 * The mixing job. 2 to 5 WAV files with per-track settings are turned into a mix built from analysis:
 *
 *   decode (every track resampled to the mix rate with soxr, mono made dual-mono, shorter tracks padded with silence
 *   at the end) -> analysis (loudness, 1/3-octave spectrum) -> corrective EQ per track (high-pass and static moves by
 *   group, measured low-mid and presence build-ups, masking-aware cuts where a lower-priority track competes in a
 *   higher-priority track's band) -> compression by group (threshold from the track's own level statistics) -> pan
 *   (explicit preferences honoured; NO_PREFERENCE tracks spread to balance the sides, low end and lead parts kept in
 *   the centre) -> each track's share of the shared algorithmic reverb -> gain staging by measured loudness toward
 *   per-group and per-presence targets (LEAD at least 4 LU above every NORMAL track, BACKGROUND at least 3 LU below)
 *   -> sum -> bus glue compressor (by style) -> the mastering chain (tonal balance by style, multiband dynamics,
 *   width, loudness under the true-peak ceiling) -> true-peak check.
 *
 * The decisions (targets, EQ moves, masking cuts, pan positions, reverb sends, bus glue) are planned from the settings
 * and the analyses in mix/decisions, the request is checked in mix/request; this file decodes, measures and renders.
 *
 * Outputs: `mix.wav` (24-bit at the requested rate), `tracks/<name>.wav` (each processed track, with its reverb
 * share, scaled by the gain that best maps the sum of the tracks onto the mix: the board can solo it), `preview.mp3`
 * and `report.json`. Written under temporary names and renamed together at the end.
 */
import { writeFile } from 'node:fs/promises';
import { type AnalysisReport, analyzePcm } from '../analysis/analyze';
import { integratedLufs } from '../analysis/loudness';
import { type Biquad, filterInPlace, highShelf, highpass, lowShelf, peaking } from '../dsp/biquad';
import { InvalidOptionsError } from '../errors';
import { encodeMp3 } from '../io/encode';
import { OutputSet } from '../io/outputs';
import { writeWav } from '../io/wav';
import type { StageContext, Tick } from '../stage/context';
import { assertOneOf, loadInput, resolveLoudnessTarget } from '../stage/input';
import type { LimiterParams } from '../master/limiter';
import { type ChainResult, ENGINE_VERSION, hintFromPrediction, masterChain, truePeaksDb } from '../master/master';
import { limitPeaks } from '../master/normalize';
import { choosePreview, extractPreview } from '../master/preview';
import { reportJson } from '../master/report';
import { type Pcm, applyGain, frameCount } from '../pcm';
import { LOUDNESS_PRESETS, MUSICAL_STYLES, type MixJob, type MusicalStyle, TRUE_PEAK_CEILING_DBTP } from '../types';
import { compressTrack } from './compressor';
import { GLUE, type PlannedTrack, maskingCuts, planEq, planLevels, planPan, reverbSendOf } from './decisions';
import type { EqMove } from './eq';
import type { EqDecision, MixReport, MixResult, TrackReport } from './report';
import { trackFileNames } from './request';
import { type ReverbParams, STYLE_REVERB, renderReverb } from './reverb';
import { type ResolvedSettings, profileOf, resolveSettings } from './settings';

export const MIX_FILES = {
  mix: 'mix.wav',
  preview: 'preview.mp3',
  report: 'report.json',
  track: (file: string) => `tracks/${file}`,
} as const;

const TRIM_ABOVE_DB = TRUE_PEAK_CEILING_DBTP - 0.05;

const r2 = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : v);

function energyOf(ch: Float32Array): number {
  let e = 0;
  for (let i = 0; i < ch.length; i++) e += ch[i]! * ch[i]!;
  return e;
}

/**
 * One track as it goes through the stages. Each stage returns new records with its decisions filled in; the audio
 * (`pcm`) is processed in place, as everywhere in the engine (a 4-minute stereo track is 85 MB of samples). The
 * planners of mix/decisions take it as the `PlannedTrack` it also is.
 */
interface Track extends PlannedTrack {
  readonly index: number;
  readonly name: string;
  readonly file: string;
  readonly settings: ResolvedSettings;
  readonly pcm: Pcm;
  readonly input: TrackReport['input'];
  readonly analysis: AnalysisReport | null;
  readonly eq: EqDecision[];
  readonly compression: TrackReport['decisions']['compression'];
  readonly targetLufs: number;
  readonly targetReason: string;
  readonly gainDb: number;
  readonly pan: TrackReport['decisions']['pan'];
  readonly reverbSendDb: number | null;
  readonly muted: boolean;
}

function sectionsOf(eq: readonly EqDecision[], fs: number): Biquad[] {
  return eq.map((d) => {
    switch (d.type) {
      case 'highpass':
        return highpass(d.freqHz, fs, d.q);
      case 'lowShelf':
        return lowShelf(d.freqHz, fs, d.gainDb);
      case 'highShelf':
        return highShelf(d.freqHz, fs, d.gainDb);
      default:
        return peaking(d.freqHz, fs, d.gainDb, d.q);
    }
  });
}

/**
 * Places a track: when it is to be positioned (any explicit preference, or spread), the track's own left/right
 * imbalance is evened out first (so a part bounced hard left still lands on the side asked for), then it is narrowed
 * to `width` (mid/side) and balanced with a constant-power law at `position`. Returns the balance correction, dB.
 */
function applyPan(pcm: Pcm, position: number, width: number, recentre: boolean): number {
  const [L, R] = pcm.channels as [Float32Array, Float32Array];
  const theta = ((position + 1) * Math.PI) / 4;
  const gl = Math.SQRT2 * Math.cos(theta);
  const gr = Math.SQRT2 * Math.sin(theta);
  let correctionDb = 0;
  if (recentre) {
    const el = energyOf(L);
    const er = energyOf(R);
    if (el > 0 && er > 0) correctionDb = Math.max(-12, Math.min(12, 10 * Math.log10(el / er)));
  }
  // Even out the track's own balance (equal-energy channels), then pan.
  const cl = Math.pow(10, -correctionDb / 40);
  const cr = Math.pow(10, correctionDb / 40);
  for (let i = 0; i < L.length; i++) {
    const l = L[i]! * cl;
    const r = R[i]! * cr;
    const m = (l + r) / 2;
    const s = ((l - r) / 2) * width;
    L[i] = (m + s) * gl;
    R[i] = (m - s) * gr;
  }
  return r2(correctionDb);
}

/**
 * Each stage's cost, measured with `engine mix` on three 2-minute stereo WAVs (2026-12-03, two runs each: 5.9-6.5 s
 * without reverb, 7.2-7.4 s with it on every track), in per cent of the three-track job without reverb: per track,
 * decode 0.8, analyze 3, track EQ 1, compress 2, pan 0.4, level 0.8, its `tracks/<name>.wav` 7, and its reverb, where
 * it has one, 9.4; for the mix, bus 4, analysis 4, EQ 2, dynamics 7.6, stereo 1, limiter 10.6, check 0.6, write 12,
 * preview 10, after 2. The plan before weighed the reverb 6 of 72 whether or not a track had one and the tracks 5: a
 * three-track mix without reverb showed 39 % a quarter of the way through its time (26 points ahead at worst; 0.5
 * with this plan).
 */
function mixPlan(job: MixJob): Record<string, number> {
  const n = job.inputs.length;
  const reverbs = job.inputs.filter((input) => (input.settings?.reverbPreference ?? 'NONE') !== 'NONE').length;
  return {
    decode: 0.8 * n,
    analyze: 3 * n,
    'track-eq': n,
    compress: 2 * n,
    pan: 0.4 * n,
    reverb: 9.4 * reverbs,
    level: 0.8 * n,
    bus: 4,
    'analyze-mix': 4,
    eq: 2,
    dynamics: 7.6,
    stereo: 1,
    limiter: 10.6,
    check: 0.6,
    tracks: 7 * n,
    write: 12,
    preview: 10,
    after: 2,
  };
}

function peakOf(pcm: Pcm): number {
  let peak = 0;
  for (const ch of pcm.channels) for (let i = 0; i < ch.length; i++) peak = Math.max(peak, Math.abs(ch[i]!));
  return peak;
}

/** The sum of the live tracks' channels (stereo, `length` frames). */
function sumOf(tracks: readonly Track[], length: number): Float32Array[] {
  const sum: Float32Array[] = [new Float32Array(length), new Float32Array(length)];
  for (const t of tracks) {
    if (t.muted) continue;
    for (let c = 0; c < 2; c++) {
      const dst = sum[c]!;
      const src = t.pcm.channels[c]!;
      for (let i = 0; i < length; i++) dst[i] = dst[i]! + src[i]!;
    }
  }
  return sum;
}

/** Decode: every track at the mix rate, stereo, aligned at 0 and padded with silence to the longest. */
async function decodeTracks(job: MixJob, ctx: StageContext, tick: Tick): Promise<Track[]> {
  const fs = job.options.sampleRate;
  const N = job.inputs.length;
  const files = trackFileNames(job.inputs.map((t) => t.name));
  const out: Track[] = [];
  for (let i = 0; i < N; i++) {
    const spec = job.inputs[i]!;
    const loaded = await loadInput(spec.path, {
      claimedType: 'audio/wav',
      sampleRate: fs,
      maxChannels: 2,
      ctx,
      tick: (f) => tick((i + f) / N),
    });
    const chs = loaded.pcm.channels;
    const pcm: Pcm = { sampleRate: fs, channels: chs.length === 1 ? [chs[0]!, chs[0]!.slice()] : chs };
    out.push({
      index: i,
      name: spec.name,
      file: files[i]!,
      settings: resolveSettings(spec.name, spec.settings),
      pcm,
      input: {
        sampleRate: loaded.probe.sampleRate ?? fs,
        channels: loaded.probe.channels ?? chs.length,
        durationSec: frameCount(pcm) / fs,
        integratedLufs: -Infinity,
        samplePeakDbfs: -Infinity,
        resampled: (loaded.probe.sampleRate ?? fs) !== fs,
        paddedSec: 0,
      },
      analysis: null,
      eq: [],
      compression: null,
      targetLufs: -Infinity,
      targetReason: '',
      gainDb: 0,
      pan: { position: 0, width: 1, reason: '' },
      reverbSendDb: null,
      muted: false,
    });
  }
  const length = Math.max(...out.map((t) => frameCount(t.pcm)));
  return out.map((t) => {
    const n = frameCount(t.pcm);
    if (n >= length) return t;
    const channels = t.pcm.channels.map((c) => {
      const x = new Float32Array(length);
      x.set(c);
      return x;
    });
    return { ...t, pcm: { sampleRate: fs, channels }, input: { ...t.input, paddedSec: r2((length - n) / fs) } };
  });
}

/** Analysis of each track (loudness, spectrum); a silent track is muted. */
async function analyseTracks(tracks: readonly Track[], tick: Tick): Promise<Track[]> {
  const N = tracks.length;
  const out: Track[] = [];
  for (const t of tracks) {
    const peak = peakOf(t.pcm);
    const peakDb = peak > 0 ? 20 * Math.log10(peak) : -Infinity;
    const analysis = await analyzePcm(t.pcm, {
      truePeaksDb: t.pcm.channels.map(() => peakDb),
      tick: (f) => tick((t.index + f) / N),
    });
    out.push({
      ...t,
      analysis,
      input: { ...t.input, integratedLufs: r2(analysis.integratedLufs), samplePeakDbfs: r2(peakDb) },
      muted: !Number.isFinite(analysis.integratedLufs),
    });
  }
  return out;
}

/** Runs `step` on each live track in turn and merges the decisions it returns; muted tracks pass unchanged. */
async function eachLive(tracks: readonly Track[], step: (t: Track) => Promise<Partial<Track>>): Promise<Track[]> {
  const out: Track[] = [];
  for (const t of tracks) out.push(t.muted ? t : { ...t, ...(await step(t)) });
  return out;
}

/** Corrective EQ per track, as planEq decides it (group moves, measured build-ups, masking cuts, reconciled). */
function equaliseTracks(tracks: readonly Track[], masking: Map<number, EqMove[]>, tick: Tick): Promise<Track[]> {
  return eachLive(tracks, async (t) => {
    const eq = planEq(t, masking.get(t.index) ?? []);
    await filterInPlace(t.pcm, sectionsOf(eq, t.pcm.sampleRate), (f) => tick((t.index + f) / tracks.length));
    return { eq };
  });
}

/** Compression by group (threshold from the track's own level statistics). */
function compressTracks(tracks: readonly Track[], tick: Tick): Promise<Track[]> {
  return eachLive(tracks, async (t) => ({
    compression: await compressTrack(t.pcm, profileOf(t.settings.instrumentGroup).comp, (f) =>
      tick((t.index + f) / tracks.length),
    ),
  }));
}

/** Pan each live track where planPan placed it; the balance correction joins the pan decision. */
async function panTracks(tracks: readonly Track[], tick: Tick): Promise<Track[]> {
  const N = tracks.length;
  const out: Track[] = [];
  for (const t of tracks) {
    if (t.muted) out.push(t);
    else {
      const recentre = t.settings.panPreference !== 'NO_PREFERENCE' || t.pan.position !== 0;
      const balanceCorrectionDb = applyPan(t.pcm, t.pan.position, t.pan.width, recentre);
      out.push({ ...t, pan: { ...t.pan, balanceCorrectionDb } });
    }
    await tick((t.index + 1) / N);
  }
  return out;
}

/** Each live track's share of the shared algorithmic reverb, added to the track; `returns` counts the sends. */
async function reverbTracks(
  tracks: readonly Track[],
  reverb: ReverbParams,
  tick: Tick,
): Promise<{ tracks: Track[]; returns: number }> {
  const N = tracks.length;
  const out: Track[] = [];
  let returns = 0;
  for (const t of tracks) {
    const db = reverbSendOf(t.settings);
    if (t.muted || db === null) {
      out.push(t);
      continue;
    }
    const fs = t.pcm.sampleRate;
    const g = Math.pow(10, db / 20);
    const [L, R] = t.pcm.channels as [Float32Array, Float32Array];
    const send: [Float32Array, Float32Array] = [L.map((v) => v * g), R.map((v) => v * g)];
    // Keep the low end and the extreme top out of the reverb.
    await filterInPlace({ channels: send }, [highpass(200, fs), peaking(9000, fs, -3, 0.7)]);
    renderReverb(send, fs, reverb, L, R);
    returns++;
    out.push({ ...t, reverbSendDb: r2(db) });
    await tick((t.index + 1) / N);
  }
  return { tracks: out, returns };
}

/** Gain staging: each live track brought to its planned loudness. */
function levelTracks(tracks: readonly Track[], tick: Tick): Promise<Track[]> {
  return eachLive(tracks, async (t) => {
    const now = integratedLufs(t.pcm.channels, t.pcm.sampleRate);
    const gainDb = Number.isFinite(now) ? r2(t.targetLufs - now) : 0;
    applyGain(t.pcm, Math.pow(10, gainDb / 20));
    await tick((t.index + 1) / tracks.length);
    return { gainDb };
  });
}

/** The bus: the sum of the live tracks, then glue compression by style. */
async function busOf(tracks: readonly Track[], style: MusicalStyle, tick: Tick) {
  const fs = tracks[0]!.pcm.sampleRate;
  const bus: Pcm = { sampleRate: fs, channels: sumOf(tracks, frameCount(tracks[0]!.pcm)) };
  const sumLufs = integratedLufs(bus.channels, fs);
  const peak = peakOf(bus);
  const settings = GLUE[style];
  const report = await compressTrack(
    bus,
    { ratio: settings.ratio, attackMs: 30, releaseMs: 200, depthDb: settings.depthDb },
    tick,
  );
  return { pcm: bus, glue: { report, sumLufs, peakDb: peak > 0 ? 20 * Math.log10(peak) : -Infinity } };
}

/** True peaks of the mastered mix (hinted by the limiter's prediction), trimmed when above the ceiling. */
async function checkMix(mix: Pcm, chain: ChainResult, tick: Tick) {
  const fs = mix.sampleRate;
  const hint = hintFromPrediction(chain.limiting.predictedPeaks, fs, fs);
  const tp = await truePeaksDb(mix, tick, hint);
  const worst = Math.max(...tp);
  const trimDb = worst <= TRIM_ABOVE_DB ? 0 : TRUE_PEAK_CEILING_DBTP - 0.1 - worst;
  if (trimDb !== 0) applyGain(mix, Math.pow(10, trimDb / 20));
  return { trimDb, tp: tp.map((v) => v + trimDb) };
}

/**
 * Tracks as heard in the mix: the processed tracks (EQ, compression, pan, reverb share, level) scaled by the one gain
 * that brings their sum to the loudness of the mix. The bus and mastering stages are not linear (dynamics, limiting)
 * and shift phase (crossovers, all-passes), so the tracks do not add up to the mix sample for sample; they add up to
 * it in level and balance.
 *
 * Scaled up to the mix's loudness, a track can peak far over the mix's ceiling (the mix was limited, its parts were
 * not: a drum track measured +3.6 dBTP beside a -9 LUFS mix). So each track then goes through the mix's own true-peak
 * limiter settings at its own level, is metered (oversampled) and trimmed if the meter still reads above the
 * ceiling: every file the user downloads is held under the same -1 dBTP as the mix.
 */
async function fitTracks(tracks: readonly Track[], mix: Pcm, limiter: LimiterParams, tick: Tick) {
  const fs = mix.sampleRate;
  const N = tracks.length;
  const sum = sumOf(tracks, frameCount(mix));
  const sumLufs = integratedLufs(sum, fs);
  const mixLufs = integratedLufs(mix.channels, fs);
  const g = Number.isFinite(sumLufs) && Number.isFinite(mixLufs) ? Math.pow(10, (mixLufs - sumLufs) / 20) : 1;
  const stats = new Map<number, TrackReport['inMix']>();
  for (const t of tracks) {
    applyGain(t.pcm, g);
    const at = (from: number, to: number) => (f: number) => tick((t.index + from + f * (to - from)) / N);
    let limiterMaxReductionDb = 0;
    let trimDb = 0;
    let tp = [-Infinity];
    if (!t.muted) {
      const limited = await limitPeaks(t.pcm, limiter, at(0, 0.6));
      limiterMaxReductionDb = limited.stats.maxReductionDb;
      tp = await truePeaksDb(t.pcm, at(0.6, 1), hintFromPrediction(limited.predictedPeaks, fs, fs));
      const worst = Math.max(...tp);
      if (worst > TRIM_ABOVE_DB) {
        trimDb = TRUE_PEAK_CEILING_DBTP - 0.1 - worst;
        applyGain(t.pcm, Math.pow(10, trimDb / 20));
        tp = tp.map((v) => v + trimDb);
      }
    }
    const peak = peakOf(t.pcm);
    const el = energyOf(t.pcm.channels[0]!);
    const er = energyOf(t.pcm.channels[1]!);
    stats.set(t.index, {
      integratedLufs: r2(integratedLufs(t.pcm.channels, fs)),
      balanceDb: el > 0 && er > 0 ? r2(10 * Math.log10(el / er)) : 0,
      truePeakDbtp: r2(Math.max(...tp)),
      limiterMaxReductionDb: r2(limiterMaxReductionDb),
      trimDb: r2(trimDb),
      encoding: peak >= 1 ? 'float32' : 'pcm24',
    });
  }
  return { gainDb: r2(20 * Math.log10(Math.max(1e-12, g))), sumLufs: r2(sumLufs + 20 * Math.log10(g)), stats };
}
type Fit = Awaited<ReturnType<typeof fitTracks>>;

/** mix.wav (24-bit) and every tracks/<file>.wav (24-bit, or 32-bit float when the track exceeds full scale). */
async function writeMix(mix: Pcm, tracks: readonly Track[], fit: Fit, paths: MixPaths, tick: Tick): Promise<void> {
  const N = tracks.length;
  await writeWav(paths.mix, mix, { encoding: 'pcm24', seed: 1, tick: (f) => tick(f / (N + 1)) });
  for (const t of tracks) {
    await writeWav(paths.tracks[t.index]!, t.pcm, {
      encoding: fit.stats.get(t.index)!.encoding,
      seed: t.index + 2,
      tick: (f) => tick((t.index + 1 + f) / (N + 1)),
    });
  }
}

interface MixPaths {
  mix: string;
  tracks: string[];
  preview: string;
  report: string;
}

function trackReport(t: Track, fit: Fit): TrackReport {
  return {
    name: t.name,
    file: MIX_FILES.track(t.file),
    settings: t.settings,
    input: t.input,
    decisions: {
      eq: t.eq,
      compression: t.compression,
      targetLufs: r2(t.targetLufs),
      targetReason: t.targetReason,
      gainDb: t.gainDb,
      pan: { ...t.pan, position: r2(t.pan.position) },
      reverbSendDb: t.reverbSendDb,
    },
    inMix: fit.stats.get(t.index)!,
    muted: t.muted,
  };
}

export async function runMix(job: MixJob, ctx: StageContext): Promise<MixResult> {
  const style = assertOneOf(job.options.style, MUSICAL_STYLES, 'style');
  const fs = job.options.sampleRate;
  const targetLufs = resolveLoudnessTarget(job.options.target) ?? LOUDNESS_PRESETS.streaming;
  ctx.plan(mixPlan(job));
  const outputs = new OutputSet(job.outDir, ctx);
  try {
    await outputs.init();
    const decoded = await ctx.stage('decode', (tick) => decodeTracks(job, ctx, tick));
    const analysed = await ctx.stage('analyze', (tick) => analyseTracks(decoded, tick));
    const levelled = planLevels(analysed);
    const masking = maskingCuts(levelled);
    const equalised = await ctx.stage('track-eq', (tick) => equaliseTracks(levelled, masking, tick));
    const compressed = planPan(await ctx.stage('compress', (tick) => compressTracks(equalised, tick)));
    const panned = await ctx.stage('pan', (tick) => panTracks(compressed, tick));
    const reverb = STYLE_REVERB[style];
    const sent = await ctx.stage('reverb', (tick) => reverbTracks(panned, reverb, tick));
    const tracks = await ctx.stage('level', (tick) => levelTracks(sent.tracks, tick));
    const bus = await ctx.stage('bus', (tick) => busOf(tracks, style, tick));
    const mix = bus.pcm;
    const before = await ctx.stage('analyze-mix', (tick) => analyzePcm(mix, { tick }));
    if (!Number.isFinite(before.integratedLufs)) throw new InvalidOptionsError('every track is silent');
    const chain = await masterChain(mix, before, null, { targetLufs, intensity: 'medium', style }, ctx);
    const check = await ctx.stage('check', (tick) => checkMix(mix, chain, tick));
    const fit = await ctx.stage('tracks', (tick) => fitTracks(tracks, mix, chain.params, tick));
    const paths: MixPaths = {
      mix: outputs.temp(MIX_FILES.mix),
      tracks: tracks.map((t) => outputs.temp(MIX_FILES.track(t.file))),
      preview: outputs.temp(MIX_FILES.preview),
      report: outputs.temp(MIX_FILES.report),
    };
    await ctx.stage('write', (tick) => writeMix(mix, tracks, fit, paths, tick));
    const window = await ctx.stage('preview', async () => {
      const choice = choosePreview(mix);
      await encodeMp3(extractPreview(mix, choice), paths.preview, ctx);
      return choice;
    });
    const after = await ctx.stage('after', (tick) => analyzePcm(mix, { tick, truePeaksDb: check.tp }));

    const report: MixReport = {
      engine: ENGINE_VERSION,
      settings: { style, sampleRate: fs, targetLufs, ceilingDbtp: TRUE_PEAK_CEILING_DBTP },
      tracks: tracks.map((t) => trackReport(t, fit)),
      reverb: { ...reverb, returns: sent.returns },
      bus: { glue: bus.glue.report, sumLufs: r2(bus.glue.sumLufs), sumPeakDbfs: r2(bus.glue.peakDb) },
      master: {
        tonal: chain.tonal,
        dynamics: chain.dynamics,
        stereo: chain.stereo,
        limiter: {
          inputGainDb: chain.limiting.search.gainDb,
          maxReductionDb: chain.limiting.search.stats.maxReductionDb,
          correctionDb: chain.limiting.correctionDb,
        },
        outputTrimDb: check.trimDb,
      },
      tracksToMix: { gainDb: fit.gainDb, sumOfTracksLufs: fit.sumLufs },
      before,
      after,
      preview: window,
      output: {
        file: MIX_FILES.mix,
        sampleRate: fs,
        bitDepth: 24,
        integratedLufs: after.integratedLufs,
        truePeakDbtp: after.truePeakDbtp,
      },
      timings: ctx.timings,
    };
    await writeFile(paths.report, reportJson(report));
    const done = await outputs.commit();
    const trackOutputs: Record<string, string> = {};
    for (const t of tracks) trackOutputs[t.name] = done[MIX_FILES.track(t.file)]!;
    return {
      kind: 'mix',
      outputs: {
        mix: done[MIX_FILES.mix]!,
        tracks: trackOutputs,
        preview: done[MIX_FILES.preview]!,
        report: done[MIX_FILES.report]!,
      },
      report,
      durationSec: frameCount(mix) / fs,
      timings: ctx.timings,
    };
  } catch (error) {
    await outputs.discard();
    throw error;
  }
}
