/**
 * The mastering chain. Every decision comes from the analysis of the input (and of the reference, if any):
 *
 *   decode -> analyse -> tonal EQ (toward the style curve or the reference) -> three-band dynamics (settings from
 *   the programme's own band statistics and its peak-to-loudness ratio) -> stereo width (low end mono) ->
 *   loudness-targeted look-ahead true-peak limiter -> measured correction -> 44.1 kHz / 16-bit (TPDF dither) and
 *   48 kHz / 24-bit (polyphase resampler) -> true-peak check of both -> preview (most representative 30 s, MP3) ->
 *   analysis of the result -> report.
 *
 * Outputs are written under temporary names and renamed together at the end (io/outputs).
 */
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { analyzePcm, type AnalysisReport } from '../analysis/analyze';
import { integratedLufs } from '../analysis/loudness';
import { filterInPlace, highpass } from '../dsp/biquad';
import { type PeakHint, truePeakDetector } from '../dsp/true-peak';
import { encodeMp3 } from '../io/encode';
import { claimedFamily } from '../io/probe';
import { resamplePcm } from '../io/resample';
import { OutputSet } from '../io/outputs';
import { writeWav } from '../io/wav';
import type { StageContext, Tick } from '../stage/context';
import { assertOneOf, inputFacts, loadInput, resolveLoudnessTarget } from '../stage/input';
import { type Pcm, applyGain, frameCount } from '../pcm';
import {
  INTENSITIES,
  LOUDNESS_PRESETS,
  MUSICAL_STYLES,
  type Intensity,
  type MasterJob,
  type MusicalStyle,
  TRUE_PEAK_CEILING_DBTP,
} from '../types';
import { type DynamicsPlanInput, analyseDynamics, applyDynamics } from './dynamics';
import type { LimiterParams } from './limiter';
import { LoudnessLimiter, MAX_LIMITER_PUSH_DB, TARGET_TOLERANCE_LU, normalizeLoudness } from './normalize';
import { choosePreview, extractPreview } from './preview';
import {
  type MasterReport,
  type MasterResult,
  type OutputFacts,
  type ReferenceMatchReport,
  reportJson,
} from './report';
import { THIRD_OCTAVE_NOMINAL } from '../analysis/spectrum';
import { STYLE_PROFILES } from './styles';
import { applyStereo, planStereo } from './stereo';
import { type TonalDecision, designTonalEq, eqSections, styleTarget } from './tonal';
import {
  type MatchEqDesign,
  type MatchLimits,
  CONTENT_FLOOR_DB,
  DISTANCE_BAND_HZ,
  MATCH_LIMITS,
  curveOf,
  designMatchEq,
  matchSections,
  fitFilterBank,
  proxyChainCurve,
  spectralDistanceDb,
  tonalDecisionOf,
} from './match';
import { RIDE_HEADROOM_DB, limitToRange } from './leveler';

export const ENGINE_VERSION = 'kora-audio-engine 0.1.0';

/**
 * Internal limiter ceiling: 0.25 dB under the delivered -1 dBTP. The limiter's 24-tap detector reads up to 0.1 dB
 * under a 64-tap reference on the brightest transients (snare and hat onsets whose samples sit 9 dB below their
 * inter-sample peak), the 32-tap meter of the final check up to 0.04 dB over it, and a second sample grid (48 kHz)
 * differs by a few hundredths; 0.25 dB covers all three without a trim.
 */
export const LIMITER_CEILING_DB = TRUE_PEAK_CEILING_DBTP - 0.25;
/** Outputs whose measured true peak exceeds this are trimmed (to 0.1 dB under the ceiling). */
const TRIM_ABOVE_DB = TRUE_PEAK_CEILING_DBTP - 0.05;

const EQ_BOUNDS: Record<Intensity, { maxDb: number; amount: number }> = {
  low: { maxDb: 2.5, amount: 0.5 },
  medium: { maxDb: 4, amount: 0.7 },
  high: { maxDb: 6, amount: 0.85 },
};
const RELEASE_SCALE: Record<Intensity, number> = { low: 1.3, medium: 1, high: 0.8 };
/** Subsonic high-pass ahead of the reference match, Hz (as the style EQ's). */
const HIGHPASS_HZ = 20;

export const MASTER_FILES = {
  master44: 'master_44100_16.wav',
  master48: 'master_48000_24.wav',
  preview: 'preview.mp3',
  report: 'report.json',
} as const;

interface ResolvedMasterOptions {
  targetLufs: number;
  targetSource: MasterReport['settings']['targetSource'];
  intensity: Intensity;
  style: MusicalStyle;
  reference: string | null;
  seed: number;
}

function resolveOptions(job: MasterJob): Omit<ResolvedMasterOptions, 'targetLufs' | 'targetSource'> & {
  explicitTarget: number | undefined;
  targetSource: ResolvedMasterOptions['targetSource'];
} {
  const o = job.options ?? {};
  const explicitTarget = resolveLoudnessTarget(o.target);
  return {
    explicitTarget,
    targetSource: o.target === undefined ? 'default' : typeof o.target === 'number' ? 'number' : 'preset',
    intensity: o.intensity === undefined ? 'medium' : assertOneOf(o.intensity, INTENSITIES, 'intensity'),
    style: o.style === undefined ? 'OTHER' : assertOneOf(o.style, MUSICAL_STYLES, 'style'),
    reference: o.reference ?? null,
    seed: Number.isInteger(o.seed) ? (o.seed as number) : 1,
  };
}

/**
 * A PeakHint for a signal at `rate` from predicted peaks at `hintRate`: the largest prediction over the matching time
 * span (widened by 64 samples each side), raised by 1 dB for the limiter's gain modulation and the resampler.
 */
export function hintFromPrediction(predicted: Float32Array, hintRate: number, rate: number): PeakHint {
  const B = 64;
  const blocks = Math.ceil(predicted.length / B);
  const maxima = new Float32Array(blocks);
  for (let b = 0; b < blocks; b++) {
    let m = 0;
    for (let i = b * B; i < Math.min(predicted.length, (b + 1) * B); i++) if (predicted[i]! > m) m = predicted[i]!;
    maxima[b] = m;
  }
  const ratio = hintRate / rate;
  const margin = Math.pow(10, 1 / 20);
  return (start, end) => {
    const b0 = Math.max(0, Math.floor((start * ratio - B) / B));
    const b1 = Math.min(blocks - 1, Math.floor((end * ratio + B) / B));
    let m = 0;
    for (let b = b0; b <= b1; b++) if (maxima[b]! > m) m = maxima[b]!;
    return m * margin;
  };
}

/** True peak of each channel, dBTP. */
export async function truePeaksDb(pcm: Pcm, tick?: Tick, hint?: PeakHint): Promise<number[]> {
  const det = truePeakDetector();
  const n = frameCount(pcm);
  const peaks: number[] = [];
  for (let c = 0; c < pcm.channels.length; c++) {
    let peak = 0;
    for (let s = 0; s < n; s += 262144) {
      peak = det.maxAbs(pcm.channels[c]!, s, Math.min(n, s + 262144), peak, hint);
      if (tick) await tick((c + Math.min(n, s + 262144) / n) / pcm.channels.length);
    }
    peaks.push(peak > 0 ? 20 * Math.log10(peak) : -Infinity);
  }
  return peaks;
}

export interface ChainSettings {
  targetLufs: number;
  intensity: Intensity;
  style: MusicalStyle;
}

/** The reference match as the chain carried it out (null without a reference). */
export interface MatchTrace {
  limits: MatchLimits;
  referenceDb: Array<number | null>;
  inputDb: Array<number | null>;
  first: MatchEqDesign;
  /** The correction after the dynamics and the proxy limiter; null when it would not bring the master closer. */
  second: MatchEqDesign | null;
  /** The filter bank applied to the audio: the first design, or the fit of both passes' corrections. */
  applied: Pick<MatchEqDesign, 'correctionDb' | 'achievedDb' | 'eq'>;
  /** Distance to the reference after the first EQ, the dynamics, the stereo stage and the proxy limiter, dB. */
  proxyDistanceDb: number | null;
  /** The same with the correction, predicted, dB. */
  predictedDistanceDb: number | null;
}

export interface ChainResult {
  tonal: TonalDecision;
  match: MatchTrace | null;
  dynamics: Awaited<ReturnType<typeof analyseDynamics>>;
  stereo: ReturnType<typeof planStereo>;
  params: LimiterParams;
  limiting: Awaited<ReturnType<typeof normalizeLoudness>>;
}

/**
 * The processing part of the mastering chain, in place on `pcm` (analysed as `before`): tonal EQ toward the style
 * (or the reference), three-band dynamics, stereo width, then loudness under the true-peak ceiling. Runs as the
 * stages eq, dynamics, stereo and limiter of `ctx`. Shared by mastering and by the mix bus.
 */
export async function masterChain(
  pcm: Pcm,
  before: AnalysisReport,
  reference: AnalysisReport | null,
  settings: ChainSettings,
  ctx: StageContext,
): Promise<ChainResult> {
  const fs = pcm.sampleRate;
  const { targetLufs, intensity, style } = settings;
  const profile = STYLE_PROFILES[style];
  // Plans that depend only on the analyses: stereo width, limiter settings, the dynamics' inputs.
  const stereoTarget = reference?.stereo?.sideToMidDb;
  const stereo = planStereo(
    before.stereo,
    stereoTarget !== undefined && Number.isFinite(stereoTarget) ? stereoTarget : profile.sideToMidDb,
    intensity,
  );
  const params: LimiterParams = {
    ceilingDb: LIMITER_CEILING_DB,
    lookahead: 0.003,
    hold: 0.006,
    release: profile.releaseSec * RELEASE_SCALE[intensity],
  };
  // Dynamics: from the style's PLR, or from the reference's PLR, crest factor and loudness range.
  const dynamicsInput: DynamicsPlanInput = {
    intensity,
    plrDb: before.plrDb,
    stylePlrDb: reference && Number.isFinite(reference.plrDb) ? reference.plrDb : profile.plrDb,
    targetPlrDb: LIMITER_CEILING_DB - targetLufs,
    ...(reference
      ? {
          reference: {
            lraLu: reference.loudnessRangeLu,
            crestFactorDb: reference.crestFactorDb,
            inputLraLu: before.loudnessRangeLu,
            inputCrestFactorDb: before.crestFactorDb,
          },
        }
      : {}),
  };

  // Tonal balance: toward the style curve (octave EQ), or onto the reference (third-octave filter bank, match.ts).
  let tonal: TonalDecision;
  let match: MatchTrace | null = null;
  if (reference) {
    const limits = MATCH_LIMITS[intensity];
    const referenceDb = curveOf(reference.spectrum, reference.integratedLufs, reference.sampleRate);
    const inputDb = curveOf(before.spectrum, before.integratedLufs, fs);
    const first = designMatchEq({
      currentDb: inputDb,
      referenceDb,
      contentDb: before.spectrum.levelsDb,
      sampleRate: fs,
      limits,
    });
    const m: MatchTrace = {
      limits,
      referenceDb,
      inputDb,
      first,
      second: null,
      applied: first,
      proxyDistanceDb: null,
      predictedDistanceDb: null,
    };
    match = m;
    // Measure what the dynamics, the stereo stage and the limiter do to the match (on an excerpt, with a proxy of
    // the limiter), and fold the correction into the one EQ pass over the audio.
    await ctx.stage('match', async (tick) => {
      const change = await proxyChainCurve(pcm, {
        eq: [highpass(HIGHPASS_HZ, fs), ...matchSections(first.eq, fs)],
        dynamics: async (x) => applyDynamics(x, await analyseDynamics(x, dynamicsInput)),
        stereo: (x) => applyStereo(x, stereo),
        limiter: params,
        targetLufs,
        maxPushDb: MAX_LIMITER_PUSH_DB,
      });
      await tick(0.9);
      const curve = inputDb.map((v, i) => (v === null || change[i] === null ? null : v + change[i]!));
      m.proxyDistanceDb = spectralDistanceDb(curve, referenceDb);
      const second = designMatchEq({
        currentDb: curve,
        referenceDb,
        contentDb: before.spectrum.levelsDb,
        sampleRate: fs,
        limits,
        alreadyDb: first.achievedDb,
      });
      const predicted = curve.map((v, i) => (v === null ? null : v + second.achievedDb[i]!));
      m.predictedDistanceDb = spectralDistanceDb(predicted, referenceDb);
      if (m.proxyDistanceDb - m.predictedDistanceDb < 0.05) return;
      m.second = second;
      const total = first.achievedDb.map((v, i) => v + second.correctionDb[i]!);
      m.applied = fitFilterBank(total, first.usable, fs, limits.maxBoostDb + limits.maxCutDb);
    });
    tonal = tonalDecisionOf(m.applied, inputDb, referenceDb, HIGHPASS_HZ);
    const sections = [highpass(HIGHPASS_HZ, fs), ...matchSections(m.applied.eq, fs)];
    await ctx.stage('eq', (tick) => filterInPlace(pcm, sections, tick));
  } else {
    const bounds = EQ_BOUNDS[intensity];
    tonal = designTonalEq(before.spectrum, styleTarget(profile.octaveCurveDb), { sampleRate: fs, ...bounds });
    await ctx.stage('eq', (tick) => filterInPlace(pcm, eqSections(tonal.eq, fs, tonal.highpassHz), tick));
  }

  const dynamics = await ctx.stage('dynamics', async (tick) => {
    const decision = await analyseDynamics(pcm, dynamicsInput, (f) => tick(f * 0.3));
    await applyDynamics(pcm, decision, (f) => tick(0.3 + f * 0.7));
    return decision;
  });

  await ctx.stage('stereo', (tick) => applyStereo(pcm, stereo, tick));

  // Loudness-targeted true-peak limiting.
  // normalizeLoudness renders in place: limiting.out is `pcm`.
  const limiting = await ctx.stage('limiter', async (tick) => {
    if (!reference) return normalizeLoudness(pcm, targetLufs, params, tick);
    // The bands leave a piece's loudness range nearly as it was: measured on the limited master, and ridden toward
    // the reference's before the limiter when it is wider, or narrower than the limiter's input.
    const headroom = { rideHeadroomDb: RIDE_HEADROOM_DB };
    const stage = await LoudnessLimiter.prepare(pcm, targetLufs, params, (f) => tick(f * 0.3), headroom);
    const { result, leveler } = await limitToRange(
      pcm,
      reference.loudnessRangeLu,
      targetLufs,
      {
        probe: (t) => stage.probe(t),
        async limit(ride, t) {
          const rendered = await stage.render(ride, pcm, t);
          return { result: rendered, ...rendered.measuredSteps };
        },
      },
      (f) => tick(0.3 + f * 0.7),
    );
    stage.release();
    dynamics.leveler = leveler;
    return result;
  });
  return { tonal, dynamics, stereo, params, limiting, match };
}

// Measured: each stage's share of the job's time on a 3-minute stereo chord (`engine master`, three runs each, WAV
// 4.28 s and MP3 4.47 s on the 2-core CI machine, 2026-12-03; with an MP3 reference, two runs, 5.82-6.03 s). A stage
// weighted above its time makes the bar run ahead of the job, one weighted below makes it lag, which the server's
// time-based share covers (`progress-estimate.ts`, LEAD). The decode is a direct read for a WAV (2 % of the job) and
// ffmpeg for anything else (10 %): weighted as 16 for every input, a WAV's bar jumped to a quarter in a second of a
// 12-second job on a loaded CI machine (stop 45).
const MASTER_PLAN = ({ withReference, readsDirectly }: { withReference: boolean; readsDirectly: boolean }) => ({
  decode: readsDirectly ? 2 : 10,
  analyze: 10,
  reference: withReference ? 14 : 0,
  match: withReference ? 6 : 0,
  eq: withReference ? 3 : 4,
  dynamics: 7,
  stereo: 2,
  limiter: 21,
  resample: 12,
  check: 5,
  write: 11,
  preview: 13,
  after: 6,
});

/** The reference track, decoded at the input's rate and analysed. */
async function analyseReference(file: string, sampleRate: number, ctx: StageContext, tick: Tick) {
  const ref = await loadInput(file, { maxChannels: 2, sampleRate, ctx, tick: (f) => tick(f * 0.5) });
  return analyzePcm(ref.pcm, { tick: (f) => tick(0.5 + f * 0.5) });
}

/** The loudness range a reference's loudness is held to (the range an explicit target must be in), LUFS. */
const REFERENCE_TARGET_RANGE = [-30, -6] as const;

/**
 * The loudness target: the explicit one, else the reference's (held to -30..-6 LUFS), else streaming.
 * `requestedLufs` is the loudness asked for before that range (the reference's own).
 */
function masterSettings(opts: ReturnType<typeof resolveOptions>, reference: AnalysisReport | null) {
  const fromReference =
    opts.explicitTarget === undefined && reference !== null && Number.isFinite(reference.integratedLufs);
  const [lowest, highest] = REFERENCE_TARGET_RANGE;
  const requestedLufs = fromReference ? reference.integratedLufs : (opts.explicitTarget ?? LOUDNESS_PRESETS.streaming);
  return {
    requestedLufs,
    targetLufs: Math.max(lowest, Math.min(highest, requestedLufs)),
    targetSource: fromReference ? ('reference' as const) : opts.targetSource,
    intensity: opts.intensity,
    style: opts.style,
    reference: opts.reference ? basename(opts.reference) : null,
    ceilingDbtp: TRUE_PEAK_CEILING_DBTP,
  };
}

/** The processed signal at both delivery rates. */
async function resampleMasters(out: Pcm, ctx: StageContext, tick: Tick) {
  const a = await resamplePcm(out, 44100, ctx, (f) => tick(f * 0.5));
  const b = await resamplePcm(out, 48000, ctx, (f) => tick(0.5 + f * 0.5));
  return [a, b] as const;
}

/** True peaks of both masters (hinted by the limiter's prediction); both trimmed when either is above the ceiling. */
async function checkMasters(out44: Pcm, out48: Pcm, predicted: Float32Array, fs: number, tick: Tick) {
  const tp44 = await truePeaksDb(out44, (f) => tick(f * 0.5), hintFromPrediction(predicted, fs, 44100));
  const tp48 = await truePeaksDb(out48, (f) => tick(0.5 + f * 0.5), hintFromPrediction(predicted, fs, 48000));
  const worst = Math.max(...tp44, ...tp48);
  const trimDb = worst <= TRIM_ABOVE_DB ? 0 : TRUE_PEAK_CEILING_DBTP - 0.1 - worst;
  if (trimDb !== 0) {
    applyGain(out44, Math.pow(10, trimDb / 20));
    if (out48 !== out44) applyGain(out48, Math.pow(10, trimDb / 20));
  }
  return { trimDb, tp44: tp44.map((v) => v + trimDb), tp48: Math.max(...tp48) + trimDb };
}

type MasterPaths = Record<keyof typeof MASTER_FILES, string>;

async function writeMasters(out44: Pcm, out48: Pcm, seed: number, paths: MasterPaths, tick: Tick): Promise<void> {
  await writeWav(paths.master44, out44, { encoding: 'pcm16', seed, tick: (f) => tick(f * 0.4) });
  await writeWav(paths.master48, out48, { encoding: 'pcm24', seed: seed + 1, tick: (f) => tick(0.4 + f * 0.6) });
}

async function writePreview(out44: Pcm, path: string, ctx: StageContext, tick: Tick) {
  const choice = choosePreview(out44);
  await tick(0.3);
  await encodeMp3(extractPreview(out44, choice), path, ctx);
  return choice;
}

/** Analysis of the 44.1 kHz master (its true peaks taken from the check) and the loudness of the 48 kHz one. */
async function analyseMasters(out44: Pcm, out48: Pcm, tp44: number[], tick: Tick) {
  const after = await analyzePcm(out44, { tick: (f) => tick(f * 0.85), truePeaksDb: tp44 });
  const lufs48 = integratedLufs(out48.channels, 48000);
  await tick(1);
  return { after, lufs48 };
}

function outputFacts(file: string, sampleRate: number, bitDepth: number, lufs: number, tp: number): OutputFacts {
  return { file, sampleRate, bitDepth, dither: 'tpdf', integratedLufs: lufs, truePeakDbtp: tp };
}

/**
 * Whether the master reached the loudness asked for (within TARGET_TOLERANCE_LU, measured on the 44.1 kHz master),
 * and if not, why: the limiter's reason (pinned against the true-peak ceiling, or the push limit that protects the
 * dynamics), else the target range a reference is held to, else the final true-peak trim.
 */
function loudnessOutcome(
  requestedLufs: number,
  targetLufs: number,
  achievedLufs: number,
  chain: ChainResult,
  trimDb: number,
): MasterReport['loudnessTarget'] {
  const shortLu = requestedLufs - achievedLufs;
  const reached = Math.abs(shortLu) <= TARGET_TOLERANCE_LU;
  let limitedBy: MasterReport['loudnessTarget']['limitedBy'] = null;
  if (shortLu > TARGET_TOLERANCE_LU) {
    limitedBy =
      chain.limiting.limitedBy ??
      (requestedLufs > targetLufs ? 'target-range' : trimDb < 0 ? 'true-peak-ceiling' : null);
  }
  return { requestedLufs, achievedLufs, toleranceLu: TARGET_TOLERANCE_LU, reached, limitedBy };
}

/** The limiter's decision as the report states it. */
function limiterDecision(chain: ChainResult): MasterReport['decisions']['limiter'] {
  const { params, limiting } = chain;
  return {
    ceilingDbtp: params.ceilingDb,
    lookaheadMs: params.lookahead * 1000,
    holdMs: params.hold * 1000,
    releaseMs: Math.round(params.release * 1000),
    inputGainDb: limiting.search.gainDb,
    searchIterations: limiting.search.iterations,
    correctionDb: limiting.correctionDb,
    ...limiting.search.stats,
  };
}

/** The reference match as the report states it, with the master's own curve measured on the 44.1 kHz output. */
function referenceMatchReport(match: MatchTrace, after: AnalysisReport): ReferenceMatchReport {
  const masterDb = curveOf(after.spectrum, after.integratedLufs, after.sampleRate);
  const distanceBeforeDb = spectralDistanceDb(match.inputDb, match.referenceDb);
  const distanceAfterDb = spectralDistanceDb(masterDb, match.referenceDb);
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  const pass = (stage: 'first' | 'correction', d: MatchEqDesign) => ({
    stage,
    correctionDb: d.correctionDb,
    achievedDb: d.achievedDb,
    sections: d.eq,
    refusedBoostHz: d.refusedBoostHz,
    cappedHz: d.cappedHz,
  });
  const { limits } = match;
  const notes = [
    `1/3-octave filter bank matched at ${Math.round(limits.amount * 100)} % of the difference, within +${limits.maxBoostDb} / -${limits.maxCutDb} dB per band (a third of that below 40 Hz and above 16 kHz).`,
  ];
  const refused = [...new Set([...match.first.refusedBoostHz, ...(match.second?.refusedBoostHz ?? [])])].sort(
    (a, b) => a - b,
  );
  if (refused.length)
    notes.push(
      `No boost at ${refused.join(', ')} Hz: the input does not play these bands (more than ${CONTENT_FLOOR_DB} dB under its loudest), so raising them would only raise noise.`,
    );
  notes.push(
    match.second
      ? `After the dynamics and the limiter the master would have been ${match.proxyDistanceDb?.toFixed(2)} dB from the reference; the correction was folded into the EQ (predicted ${match.predictedDistanceDb?.toFixed(2)} dB).`
      : `After the dynamics and the limiter the match held (${match.proxyDistanceDb?.toFixed(2)} dB from the reference): no correction needed.`,
  );
  notes.push(
    distanceAfterDb <= distanceBeforeDb
      ? `The master is ${distanceAfterDb.toFixed(2)} dB from the reference, the input was ${distanceBeforeDb.toFixed(2)} dB.`
      : `The master ended further from the reference (${distanceAfterDb.toFixed(2)} dB) than the input (${distanceBeforeDb.toFixed(2)} dB).`,
  );
  return {
    method: 'third-octave filter bank',
    bandsHz: [...THIRD_OCTAVE_NOMINAL],
    referenceDb: match.referenceDb.map(round),
    inputDb: match.inputDb.map(round),
    masterDb: masterDb.map(round),
    distanceBandHz: [DISTANCE_BAND_HZ[0], DISTANCE_BAND_HZ[1]],
    distanceBeforeDb,
    distanceAfterDb,
    closer: distanceAfterDb <= distanceBeforeDb,
    limits: { ...limits, edgeShare: 1 / 3, contentFloorDb: CONTENT_FLOOR_DB },
    passes: [pass('first', match.first), ...(match.second ? [pass('correction', match.second)] : [])],
    appliedDb: match.applied.achievedDb,
    appliedSections: match.applied.eq,
    proxyDistanceDb: match.proxyDistanceDb,
    predictedDistanceDb: match.predictedDistanceDb,
    notes,
  };
}

export async function runMaster(job: MasterJob, ctx: StageContext): Promise<MasterResult> {
  const opts = resolveOptions(job);
  // A WAV is read without ffmpeg (`directWav`), unless it needs resampling or a downmix: then it lags a little.
  const readsDirectly = claimedFamily(job.claimedType ?? job.input) === 'wav';
  ctx.plan(MASTER_PLAN({ withReference: Boolean(opts.reference), readsDirectly }));
  const outputs = new OutputSet(job.outDir, ctx);
  try {
    await outputs.init();
    const input = await ctx.stage('decode', (tick) =>
      loadInput(job.input, { claimedType: job.claimedType, maxChannels: 2, ctx, tick }),
    );
    const pcm = input.pcm;
    const fs = pcm.sampleRate;
    const before = await ctx.stage('analyze', (tick) => analyzePcm(pcm, { tick }));
    const refFile = opts.reference;
    const reference = refFile ? await ctx.stage('reference', (tick) => analyseReference(refFile, fs, ctx, tick)) : null;
    const { requestedLufs, ...settings } = masterSettings(opts, reference);
    const { targetLufs, intensity, style } = settings;
    // masterChain renders in place: chain.limiting.out is `pcm`.
    const chain = await masterChain(pcm, before, reference, { targetLufs, intensity, style }, ctx);
    const out = chain.limiting.out;
    const [out44, out48] = await ctx.stage('resample', (tick) => resampleMasters(out, ctx, tick));
    const check = await ctx.stage('check', (tick) =>
      checkMasters(out44, out48, chain.limiting.predictedPeaks, fs, tick),
    );
    const paths: MasterPaths = {
      master44: outputs.temp(MASTER_FILES.master44),
      master48: outputs.temp(MASTER_FILES.master48),
      preview: outputs.temp(MASTER_FILES.preview),
      report: outputs.temp(MASTER_FILES.report),
    };
    await ctx.stage('write', (tick) => writeMasters(out44, out48, opts.seed, paths, tick));
    const previewChoice = await ctx.stage('preview', (tick) => writePreview(out44, paths.preview, ctx, tick));
    // The true peaks were measured in the check (and scaled by the trim), so the analysis does not redo them.
    const { after, lufs48 } = await ctx.stage('after', (tick) => analyseMasters(out44, out48, check.tp44, tick));

    const report: MasterReport = {
      engine: ENGINE_VERSION,
      input: inputFacts(input, { sampleRate: fs, channels: before.channels }),
      settings,
      before,
      after,
      reference,
      referenceMatch: chain.match ? referenceMatchReport(chain.match, after) : null,
      loudnessTarget: loudnessOutcome(requestedLufs, targetLufs, after.integratedLufs, chain, check.trimDb),
      decisions: {
        tonal: { ...chain.tonal, target: reference ? 'reference' : 'style' },
        dynamics: chain.dynamics,
        stereo: chain.stereo,
        limiter: limiterDecision(chain),
        outputTrimDb: check.trimDb,
        preview: previewChoice,
      },
      outputs: {
        master44: outputFacts(MASTER_FILES.master44, 44100, 16, after.integratedLufs, after.truePeakDbtp),
        master48: outputFacts(MASTER_FILES.master48, 48000, 24, lufs48, check.tp48),
        preview: { file: MASTER_FILES.preview, format: 'mp3', bitrate: '192k' },
      },
      timings: ctx.timings,
    };
    await writeFile(paths.report, reportJson(report));
    const done = await outputs.commit();
    return {
      kind: 'master',
      probe: input.probe,
      outputs: {
        master44: done[MASTER_FILES.master44]!,
        master48: done[MASTER_FILES.master48]!,
        preview: done[MASTER_FILES.preview]!,
        report: done[MASTER_FILES.report]!,
      },
      report,
      durationSec: before.durationSec,
      timings: ctx.timings,
    };
  } catch (error) {
    await outputs.discard();
    throw error;
  }
}
