/**
 * Three-band compressor whose settings come from the programme itself.
 *
 * Pass 1 splits the mono sum into bands (LR4 at 150 Hz and 3 kHz) and measures each band's level in 50 ms blocks
 * over the active part of the track. The threshold of a band sits a fixed distance above the power mean of its own
 * active blocks (+4 / +2 / 0 dB for low / medium / high intensity), so a quiet and a loud mix, or a sparse hi-hat
 * band and a dense pad band, get the same treatment: only the blocks louder than the band's average are touched.
 * The ratio grows with how far the peak-to-loudness ratio exceeds what the style keeps, or what the loudness target
 * leaves room for beyond 3 dB of limiting (a club target asks the compressor to share the work); an input already
 * denser than the style (e.g. clipped, brick-walled) is not compressed at all. Gain reduction is capped per band (4 / 5 / 6 dB)
 * so no band is ever squashed, and make-up gain (at most +3 dB) restores each band's mean level, so the compressor
 * tightens dynamics without undoing the tonal balance.
 *
 * Pass 2 processes both channels with a stereo-linked detector: mean-square of the band across channels smoothed
 * by a one-pole (RMS window), static curve with a soft knee evaluated every 32 samples, gain reduction smoothed with
 * per-band attack/release (slower in the low band so the compressor never follows individual bass cycles), and gain
 * interpolated linearly between control points.
 */
import type { RangeLevelerDecision } from './leveler';
import { StereoThreeBandSplitter, ThreeBandSplitter } from '../dsp/crossover';
import { clamp, onePole } from '../dsp/envelope';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';
import type { Intensity } from '../types';

export const CROSSOVERS_HZ: [number, number] = [150, 3000];
const CHUNK = 65536;
const CONTROL = 32;

interface BandTiming {
  name: 'low' | 'mid' | 'high';
  attack: number;
  release: number;
  rms: number;
}
const TIMING: BandTiming[] = [
  { name: 'low', attack: 0.03, release: 0.25, rms: 0.02 },
  { name: 'mid', attack: 0.015, release: 0.18, rms: 0.01 },
  { name: 'high', attack: 0.006, release: 0.12, rms: 0.005 },
];

export interface BandDecision {
  name: 'low' | 'mid' | 'high';
  thresholdDb: number;
  ratio: number;
  kneeDb: number;
  /** Cap on the gain reduction, dB. */
  rangeDb: number;
  attackMs: number;
  releaseMs: number;
  makeupDb: number;
  /** Mean gain reduction applied over the active part (dB, from the processed signal). */
  meanReductionDb: number;
  maxReductionDb: number;
}

export interface DynamicsDecision {
  crossoversHz: [number, number];
  bypassed: boolean;
  reason: string;
  bands: BandDecision[];
  /**
   * Reference mastering: the slow ride toward the reference's loudness range, measured on the limited master and
   * ridden before the limiter (`leveler.ts`).
   */
  leveler?: RangeLevelerDecision;
}

const INTENSITY = {
  low: { offsetDb: 4, ratio: 1.5, maxReductionDb: 4 },
  medium: { offsetDb: 2, ratio: 2, maxReductionDb: 5 },
  high: { offsetDb: 0, ratio: 3, maxReductionDb: 6 },
} as const;
const MAX_MAKEUP_DB = 3;

/**
 * Static gain computer with a soft knee (Giannoulis, Massberg & Reiss, JAES 2012, eq. 4): gain change in dB,
 * never below -maxReductionDb.
 */
export function staticGainDb(
  levelDb: number,
  thresholdDb: number,
  ratio: number,
  kneeDb: number,
  maxReductionDb = Infinity,
): number {
  const over = levelDb - thresholdDb;
  let g: number;
  if (2 * over <= -kneeDb) g = 0;
  else if (2 * Math.abs(over) < kneeDb) g = ((1 / ratio - 1) * (over + kneeDb / 2) ** 2) / (2 * kneeDb);
  else g = (1 / ratio - 1) * over;
  return Math.max(g, -maxReductionDb);
}

const BLOCK_SEC = 0.05;

/** Pass 1: 50 ms block levels (dB) of each band of the mono sum, and which blocks are active. */
async function bandLevels(pcm: Pcm, tick?: Tick): Promise<{ levels: Float64Array[]; active: boolean[] }> {
  const n = frameCount(pcm);
  const fs = pcm.sampleRate;
  const block = Math.round(BLOCK_SEC * fs);
  const blocks = Math.floor(n / block);
  const splitter = new ThreeBandSplitter(CROSSOVERS_HZ[0], CROSSOVERS_HZ[1], fs);
  const bandBuf = [new Float32Array(CHUNK), new Float32Array(CHUNK), new Float32Array(CHUNK)] as const;
  const mono = new Float32Array(CHUNK);
  const sums = [new Float64Array(blocks + 1), new Float64Array(blocks + 1), new Float64Array(blocks + 1)];
  const broadband = new Float64Array(blocks + 1);
  const chs = pcm.channels;
  for (let s = 0; s < n; s += CHUNK) {
    const e = Math.min(n, s + CHUNK);
    const len = e - s;
    for (let i = 0; i < len; i++) {
      let v = 0;
      for (const ch of chs) v += ch[s + i]!;
      mono[i] = v / chs.length;
    }
    splitter.split(mono, 0, len, bandBuf[0], bandBuf[1], bandBuf[2]);
    for (let i = 0; i < len; i++) {
      const b = Math.floor((s + i) / block);
      broadband[b] = broadband[b]! + mono[i]! * mono[i]!;
      for (let k = 0; k < 3; k++) {
        const v = bandBuf[k]![i]!;
        sums[k]![b] = sums[k]![b]! + v * v;
      }
    }
    if (tick) await tick(e / n);
  }
  const toDb = (e: number) => (e > 0 ? 10 * Math.log10(e / block) : -Infinity);
  const bb = Array.from(broadband.subarray(0, blocks), toDb);
  // Active: above -70 dBFS and within 20 dB of the blocks' power mean (the LRA gate, applied to 50 ms blocks).
  const loud = bb.filter((v) => v > -70);
  const mean = loud.length ? 10 * Math.log10(loud.reduce((a, v) => a + Math.pow(10, v / 10), 0) / loud.length) : -70;
  const active = bb.map((v) => v > -70 && v > mean - 20);
  return { levels: sums.map((s) => Float64Array.from(s.subarray(0, blocks), toDb)), active };
}

export interface DynamicsPlanInput {
  intensity: Intensity;
  /** Input peak-to-loudness ratio, dB. */
  plrDb: number;
  /** The style's typical PLR, dB. */
  stylePlrDb: number;
  /** The largest PLR the loudness target leaves room for: ceiling minus target (e.g. 7.75 dB for club). */
  targetPlrDb: number;
  /**
   * Reference mastering: the reference's dynamics replace the style's. `stylePlrDb` is then the reference's PLR;
   * the compressor is bypassed when the input's loudness range is already no wider than the reference's (plus 1 LU)
   * and its crest factor no more than 2 dB above the reference's, so it never flattens the input below the track it
   * is matched to; otherwise the ratio grows with the larger of the PLR, crest and LRA excesses.
   */
  reference?: { lraLu: number; crestFactorDb: number; inputLraLu: number; inputCrestFactorDb: number };
}

/** LU of loudness range above the reference's that the compressor leaves alone in reference mastering. */
const REFERENCE_LRA_SLACK_LU = 1;
/** dB of crest factor above the reference's that the compressor leaves alone in reference mastering. */
const REFERENCE_CREST_SLACK_DB = 2;

/** Peak reduction the limiter is left to do alone, dB; beyond it the compressor works harder. */
const LIMITER_BUDGET_DB = 3;

/** Decides band settings from pass-1 statistics. */
export function planDynamics(levels: Float64Array[], active: boolean[], input: DynamicsPlanInput): DynamicsDecision {
  const cfg = INTENSITY[input.intensity];
  const excess = input.plrDb - input.stylePlrDb;
  const activeCount = active.filter(Boolean).length;
  const base = { crossoversHz: CROSSOVERS_HZ, bands: [] as BandDecision[] };
  if (activeCount < 20) return { ...base, bypassed: true, reason: 'too little active programme to measure' };
  if (excess < -3) {
    return {
      ...base,
      bypassed: true,
      reason: `input already denser than the ${input.reference ? 'reference' : 'style'} (PLR ${input.plrDb.toFixed(1)} dB vs ${input.stylePlrDb.toFixed(1)} dB)`,
    };
  }
  const ref = input.reference;
  let refExcess = -Infinity;
  if (ref) {
    const lraExcess = ref.inputLraLu - ref.lraLu;
    const crestExcess = ref.inputCrestFactorDb - ref.crestFactorDb;
    if (lraExcess <= REFERENCE_LRA_SLACK_LU && crestExcess <= REFERENCE_CREST_SLACK_DB && excess <= 3) {
      return {
        ...base,
        bypassed: true,
        reason:
          `loudness range ${ref.inputLraLu.toFixed(1)} LU and crest factor ${ref.inputCrestFactorDb.toFixed(1)} dB ` +
          `are within ${REFERENCE_LRA_SLACK_LU} LU / ${REFERENCE_CREST_SLACK_DB} dB of the reference's ` +
          `(${ref.lraLu.toFixed(1)} LU, ${ref.crestFactorDb.toFixed(1)} dB): no compression`,
      };
    }
    refExcess = Math.max(lraExcess - REFERENCE_LRA_SLACK_LU, crestExcess - REFERENCE_CREST_SLACK_DB);
  }
  // What the limiter would otherwise have to take off beyond its budget (loud targets such as club leave little room).
  const squeeze = input.plrDb - input.targetPlrDb - LIMITER_BUDGET_DB;
  const need = clamp(Math.max(excess, squeeze, refExcess) / 6, 0, 1);
  const ratio = 1 + (cfg.ratio - 1) * (0.4 + 0.6 * need);
  const kneeDb = 6;
  const bands = TIMING.map((t, k): BandDecision => {
    const lv = levels[k]!.filter((l, i) => active[i] && Number.isFinite(l));
    let power = 0;
    for (const l of lv) power += Math.pow(10, l / 10);
    const meanDb = lv.length ? 10 * Math.log10(power / lv.length) : -120;
    const thresholdDb = meanDb + cfg.offsetDb;
    // Make-up: power mean of the static gain change over active blocks, negated (capped).
    let num = 0;
    for (const l of lv) num += Math.pow(10, (l + staticGainDb(l, thresholdDb, ratio, kneeDb, cfg.maxReductionDb)) / 10);
    const makeupDb = power > 0 ? Math.min(MAX_MAKEUP_DB, -10 * Math.log10(num / power)) : 0;
    return {
      name: t.name,
      thresholdDb: Math.round(thresholdDb * 10) / 10,
      ratio: Math.round(ratio * 100) / 100,
      kneeDb,
      rangeDb: cfg.maxReductionDb,
      attackMs: t.attack * 1000,
      releaseMs: t.release * 1000,
      makeupDb: Math.round(makeupDb * 100) / 100,
      meanReductionDb: 0,
      maxReductionDb: 0,
    };
  });
  const reason = ref
    ? `against the reference: PLR ${input.plrDb.toFixed(1)} dB vs ${input.stylePlrDb.toFixed(1)} dB, loudness range ` +
      `${ref.inputLraLu.toFixed(1)} vs ${ref.lraLu.toFixed(1)} LU, crest factor ${ref.inputCrestFactorDb.toFixed(1)} vs ` +
      `${ref.crestFactorDb.toFixed(1)} dB`
    : excess > 0
      ? `PLR ${input.plrDb.toFixed(1)} dB is ${excess.toFixed(1)} dB above the style's ${input.stylePlrDb} dB`
      : `PLR ${input.plrDb.toFixed(1)} dB is near the style's ${input.stylePlrDb} dB: light glue only`;
  return { ...base, bypassed: false, reason, bands };
}

/** Pass 1 and the plan. */
export async function analyseDynamics(pcm: Pcm, input: DynamicsPlanInput, tick?: Tick): Promise<DynamicsDecision> {
  const { levels, active } = await bandLevels(pcm, tick);
  return planDynamics(levels, active, input);
}

/** Pass 2: applies the decided compression in place. Fills meanReductionDb / maxReductionDb of each band. */
export async function applyDynamics(pcm: Pcm, decision: DynamicsDecision, tick?: Tick): Promise<void> {
  if (decision.bypassed) return;
  const n = frameCount(pcm);
  const fs = pcm.sampleRate;
  const chs = pcm.channels;
  const nc = chs.length;
  const stereoSplitter = nc === 2 ? StereoThreeBandSplitter.create(CROSSOVERS_HZ[0], CROSSOVERS_HZ[1], fs) : null;
  const splitters = stereoSplitter ? [] : chs.map(() => new ThreeBandSplitter(CROSSOVERS_HZ[0], CROSSOVERS_HZ[1], fs));
  const bufs = chs.map(() => [new Float32Array(CHUNK), new Float32Array(CHUNK), new Float32Array(CHUNK)]);
  const state = decision.bands.map((b, k) => ({
    power: 0,
    grDb: 0,
    prevGain: Math.pow(10, b.makeupDb / 20),
    rmsCoef: onePole(TIMING[k]!.rms, fs),
    attCoef: onePole(b.attackMs / 1000, fs / CONTROL),
    relCoef: onePole(b.releaseMs / 1000, fs / CONTROL),
    makeup: Math.pow(10, b.makeupDb / 20),
    sumGr: 0,
    count: 0,
    maxGr: 0,
  }));
  for (let s = 0; s < n; s += CHUNK) {
    const e = Math.min(n, s + CHUNK);
    const len = e - s;
    if (stereoSplitter) stereoSplitter.split(chs[0]!, chs[1]!, s, e, [bufs[0]!, bufs[1]!]);
    else for (let c = 0; c < nc; c++) splitters[c]!.split(chs[c]!, s, e, bufs[c]![0]!, bufs[c]![1]!, bufs[c]![2]!);
    for (let c = 0; c < nc; c++) chs[c]!.fill(0, s, e);
    for (let k = 0; k < 3; k++) {
      const b = decision.bands[k]!;
      const st = state[k]!;
      const a = st.rmsCoef;
      // One pass per band: the gain for each 32-sample control block comes from the detector state at the block's
      // start (0.7 ms of latency in the side chain, far below the attack times) and is interpolated linearly across
      // the block while the detector runs on and the band is summed into the output.
      for (let i0 = 0; i0 < len; i0 += CONTROL) {
        const i1 = Math.min(len, i0 + CONTROL);
        const p0 = st.power;
        const level = p0 > 1e-12 ? 10 * Math.log10(p0) : -120;
        const target = staticGainDb(level, b.thresholdDb, b.ratio, b.kneeDb, b.rangeDb);
        const coef = target < st.grDb ? st.attCoef : st.relCoef;
        st.grDb = coef * st.grDb + (1 - coef) * target;
        const g = Math.pow(10, st.grDb / 20) * st.makeup;
        const step = (g - st.prevGain) / (i1 - i0);
        let gi = st.prevGain;
        let p = p0;
        if (nc === 2) {
          const l = bufs[0]![k]!;
          const r = bufs[1]![k]!;
          const ol = chs[0]!;
          const or = chs[1]!;
          for (let i = i0; i < i1; i++) {
            gi += step;
            const vl = l[i]!;
            const vr = r[i]!;
            p = a * p + (1 - a) * 0.5 * (vl * vl + vr * vr);
            ol[s + i] = ol[s + i]! + vl * gi;
            or[s + i] = or[s + i]! + vr * gi;
          }
        } else {
          for (let i = i0; i < i1; i++) {
            gi += step;
            let sq = 0;
            for (let c = 0; c < nc; c++) {
              const v = bufs[c]![k]![i]!;
              sq += v * v;
              chs[c]![s + i] = chs[c]![s + i]! + v * gi;
            }
            p = a * p + ((1 - a) * sq) / nc;
          }
        }
        st.power = p;
        st.prevGain = g;
        if (level > b.thresholdDb - 30) {
          st.sumGr += -st.grDb;
          st.count++;
        }
        if (-st.grDb > st.maxGr) st.maxGr = -st.grDb;
      }
    }
    if (tick) await tick(e / n);
  }
  decision.bands.forEach((b, k) => {
    const st = state[k]!;
    b.meanReductionDb = Math.round((st.count ? st.sumGr / st.count : 0) * 100) / 100;
    b.maxReductionDb = Math.round(st.maxGr * 100) / 100;
  });
}
