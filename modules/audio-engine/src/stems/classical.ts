/**
 * The built-in (classical, model-free) separator. One STFT (about 93 ms frames, 75 % overlap), then:
 *
 * 1. Harmonic/percussive split by median filtering (Fitzgerald 2010): a time median (about 0.25 s) estimates the
 *    sustained part of each bin, a frequency median (about 300 Hz) the broadband part; their ratio gives soft masks.
 *    Percussive energy is the drum stem's, and so is noise-like energy above 3-6 kHz (hats and cymbal wash, which
 *    sustain and would otherwise count as harmonic).
 * 2. Centre channel: the inter-channel similarity of each bin (Avendano & Jot, "A frequency-domain approach to
 *    multichannel upmix", JAES 2004) says how close to the centre it sits. Lead vocals are mixed to the centre.
 * 3. Vocal pitch: the predominant melody is tracked on the centre-weighted harmonic spectrogram (pitch.ts, with an
 *    octave check against subharmonic errors); the bins on its harmonic series (with a tolerance for vibrato) form the
 *    vocal mask, each scaled down where a long (about 6 s) time median says the bin holds its usual, sustained level:
 *    a melody moves while the accompaniment under it holds (the idea of REPET and kernel additive modelling, Rafii &
 *    Pardo 2013, Liutkus et al. 2014, reduced to one long median).
 * 4. Bass: the harmonic, non-vocal energy below 100 Hz, fading out by 220 Hz, plus the harmonics of the bass
 *    line's own tracked pitch up to 350 Hz.
 * 5. Guitars (guitars mode): the pitched, non-vocal, non-bass energy of the 80 Hz - 6 kHz range that sits away from
 *    the centre. This is a placement heuristic, not an instrument model: keys panned like guitars land there too.
 * 6. Other: whatever remains, so the masks sum to one in every bin.
 * 7. Multichannel Wiener filtering (Duong, Vincent & Gribonval 2010; as in Nugraha et al. and the open-unmix
 *    "norbert" post-filter): each source gets a power spectrogram from its mask and a 2x2 spatial covariance per
 *    frequency estimated from its masked estimate; every source's STFT is v_j R_j (sum_k v_k R_k)^-1 x. The filters
 *    sum to the identity, so the stems still sum to the mixture, and panned sources are separated by position as well
 *    as by mask.
 *
 * The last stem is the mixture minus the others in the time domain, so the stems sum to the input to rounding.
 */
import type { Tick } from '../stage/context';
import type { Pcm } from '../pcm';
import type { SeparatedStem } from '../types';
import { SlidingMedian } from './median';
import { type PitchOptions, pitchRowBins, trackPitch } from './pitch';
import { InverseStft, type StftShape, StftFrames, separationFftSize } from './stft';

export interface ClassicalDecisions {
  method: 'classical';
  fftSize: number;
  hop: number;
  harmonicMedianFrames: number;
  percussiveMedianBins: number;
  /** Share of frames where a vocal pitch was found. */
  vocalVoicedShare: number;
  /** Median vocal pitch over voiced frames, Hz (null when none). */
  vocalMedianF0Hz: number | null;
  /** Share of frames where a bass pitch was found. */
  bassVoicedShare: number;
  wienerIterations: number;
}

export interface ClassicalResult {
  stems: Map<SeparatedStem, Pcm>;
  decisions: ClassicalDecisions;
}

const EPS = 1e-12;
/**
 * Tuning. These values were chosen on the three tuning songs of the evaluation (see docs/engine.md: the evaluation
 * also reports songs that were not used for tuning).
 */
const TUNING = {
  /** Half-length of the harmonic (time) median, seconds. */
  harmonicHalfSec: 0.12,
  /** Half-width of the percussive (frequency) median, Hz. */
  percussiveHalfHz: 150,
  /** Exponent of the harmonic/percussive soft mask. */
  hpssPower: 2,
  /** Inter-channel similarity mapped to the centre weight: 0 at or below `centreLow`, 1 at or above `centreHigh`. */
  centreLow: 0.6,
  centreHigh: 0.95,
  /** Vocal comb half-width, cents (beyond the window's own main lobe). */
  vocalCombCents: 40,
  vocalMaxHz: 8000,
  /** Exponent of the centre weight in the vocal mask. */
  vocalCentreExponent: 1,
  /** Melody tracking: voicing threshold, and the salience floor (dB below the song's 95th percentile). */
  voicingThreshold: 0.4,
  salienceFloorDb: -13,
  /** The harmonic low end counts as bass below `bassLowHz`, fading out by `bassHighHz`. */
  bassLowHz: 100,
  bassHighHz: 220,
  /** The bass line's tracked harmonics are claimed up to this frequency. */
  bassCombMaxHz: 350,
  bassCombCents: 25,
  /** Noise-like bins above these frequencies lean to the drums (fade-in range), by local flatness 0.35 .. 0.7. */
  airLowHz: 3000,
  airHighHz: 6000,
  flatLow: 0.35,
  flatHigh: 0.7,
  /** Wiener source variance = mask^exponent x mixture power. */
  varianceExponent: 1,
  /** Multichannel Wiener passes (each but the last re-estimates the spatial covariances). */
  wienerIterations: 2,
  /**
   * Sustained-accompaniment model for the vocal bins: half-length of a long time median of the magnitude, seconds.
   * In a voiced frame a comb bin keeps m^2 / (m^2 + B^2) of its vocal weight (m its magnitude, B the long median): a
   * sung line moves from note to note while chords and pads under it hold, so energy at the bin's usual level is
   * more likely accompaniment than voice.
   */
  backgroundHalfSec: 3,
  /** Vocal pitch octave check: odd-to-even harmonic amplitude ratio below which the octave above is taken. */
  octaveOddRatio: 0.5,
} as const;

const smoothstep = (x: number, a: number, b: number): number => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/** Sources produced for a set of requested stems (other is always last). */
function sourceList(stems: readonly SeparatedStem[]): SeparatedStem[] {
  const order: SeparatedStem[] = ['vocals', 'drums', 'bass', 'guitars', 'piano'];
  const list = order.filter((s) => stems.includes(s) && s !== 'piano');
  list.push('other');
  return list;
}

/**
 * Frames of the STFT analysed together by the first pass (the medians are computed over a window of the neighbouring
 * frames, held for these frames and their context only). Any length gives the same values.
 */
const BLOCK_FRAMES = 1024;

interface Analysis {
  /** Percussive share of every cell (frames x bins): the harmonic/percussive soft mask. */
  wP: Float32Array;
  /** Long time median of the magnitude in the vocal range (frames x kv), when the vocals are wanted. */
  bg: Float32Array | null;
  /** Bins of the vocal range. */
  kv: number;
  /** Lengths of the time (frames) and frequency (bins) medians. */
  lt: number;
  lf: number;
  /** The pitch trackers' salience (frames x their own width), for the stems wanted. */
  bassSalience: Float32Array | null;
  vocalSalience: Float32Array | null;
}

/** Leading bins of each frame a pitch tracker reads: its salience keeps only those. */
const pitchWidth = (shape: StftShape, fs: number, options: PitchShape['options']): number =>
  pitchRowBins({ sampleRate: fs, fftSize: shape.n, bins: shape.bins, ...options });

/**
 * 1. The first pass over the STFT, block by block: the harmonic (time) and percussive (frequency) medians of the
 * magnitude, their soft mask (the percussive share of every cell), the long time median of the vocal range, and the
 * salience the pitch trackers read: the harmonic magnitude weighted by a band (and by the centre weight for the
 * vocals). A time median of frame t sees only frames t - half .. t + half, so each block of frames is computed from
 * the magnitudes of the block and of `half` frames either side; at the ends of the song the windows are truncated
 * as over the whole song. The values are those of a pass over the whole spectrogram.
 */
async function analyse(
  src: StftFrames,
  fs: number,
  wantVocals: boolean,
  wantBass: boolean,
  blockFrames: number,
  tick: Tick,
): Promise<Analysis> {
  const shape = src.shape;
  const { bins, frames, hop } = shape;
  const binHz = fs / shape.n;
  const hopSec = hop / fs;
  const lt = Math.max(3, 2 * Math.round(TUNING.harmonicHalfSec / hopSec) + 1);
  const lf = Math.max(3, 2 * Math.round(TUNING.percussiveHalfHz / binHz) + 1);
  const lb = Math.max(3, 2 * Math.round(TUNING.backgroundHalfSec / hopSec) + 1);
  const kv = Math.min(bins, Math.ceil(TUNING.vocalMaxHz / binHz) + 1);
  const mt = new SlidingMedian(lt);
  const mb = new SlidingMedian(lb);
  const mf = new SlidingMedian(lf);
  const wP = new Float32Array(frames * bins);
  const bg = wantVocals ? new Float32Array(frames * kv) : null;
  const bw = wantBass ? pitchWidth(shape, fs, BASS_PITCH.options) : 0;
  const vw = wantVocals ? pitchWidth(shape, fs, VOCAL_PITCH.options) : 0;
  const bassSalience = wantBass ? new Float32Array(frames * bw) : null;
  const vocalSalience = wantVocals ? new Float32Array(frames * vw) : null;
  const bassBand = Float64Array.from({ length: bw }, (_, k) => BASS_PITCH.band(k * binHz));
  const vocalBand = Float64Array.from({ length: vw }, (_, k) => VOCAL_PITCH.band(k * binHz));
  // The window: magnitudes (and centre weights of the vocal salience's bins) of frames w0 .. w1 - 1.
  const half = Math.max((lt - 1) >> 1, bg ? (lb - 1) >> 1 : 0);
  const capacity = Math.min(frames, blockFrames + 2 * half);
  const mag = new Float32Array(capacity * bins);
  const centre = new Float64Array(capacity * vw);
  const harm = new Float32Array(Math.min(frames, blockFrames) * bins);
  const perc = new Float32Array(bins);
  let w0 = 0;
  let w1 = 0;
  let done = 0;
  const progress = () => tick(0.34 * (done / (3 * frames)));
  for (let a = 0; a < frames; a += blockFrames) {
    const b = Math.min(frames, a + blockFrames);
    const lo = Math.max(0, a - half);
    const hi = Math.min(frames, b + half);
    if (lo > w0) {
      mag.copyWithin(0, (lo - w0) * bins, (w1 - w0) * bins);
      centre.copyWithin(0, (lo - w0) * vw, (w1 - w0) * vw);
      w0 = lo;
    }
    for (let t = w1; t < hi; t++) {
      src.load(t);
      const r = t - w0;
      mag.set(src.mag, r * bins);
      for (let k = 0; k < vw; k++) centre[r * vw + k] = centreOf(src.re, src.im, k);
      if ((++done & 255) === 255) await progress();
    }
    w1 = hi;
    const count = w1 - w0;
    for (let k = 0; k < bins; k++) {
      mt.run(mag, k, bins, count, harm, k - (a - w0) * bins, bins, a - w0, b - w0);
      if (bg && k < kv) mb.run(mag, k, bins, count, bg, w0 * kv + k, kv, a - w0, b - w0);
      if ((k & 255) === 255) await tick(0.34 * ((done + ((b - a) * k) / bins) / (3 * frames)));
    }
    done += b - a;
    const pw = TUNING.hpssPower;
    for (let t = a; t < b; t++) {
      const r = (t - w0) * bins;
      mf.run(mag, r, 1, bins, perc, 0, 1);
      const h0 = (t - a) * bins;
      const o = t * bins;
      for (let k = 0; k < bins; k++) {
        const hk = harm[h0 + k]!;
        const pk = perc[k]!;
        const h = pw === 2 ? hk * hk : Math.pow(hk, pw);
        const p = pw === 2 ? pk * pk : Math.pow(pk, pw);
        wP[o + k] = p / (h + p + EPS);
      }
      if (bassSalience) {
        for (let k = 0; k < bw; k++) bassSalience[t * bw + k] = mag[r + k]! * (1 - wP[o + k]!) * bassBand[k]!;
      }
      if (vocalSalience) {
        const cr = (t - w0) * vw;
        for (let k = 0; k < vw; k++) {
          vocalSalience[t * vw + k] = mag[r + k]! * (1 - wP[o + k]!) * centre[cr + k]! * vocalBand[k]!;
        }
      }
      if ((++done & 255) === 255) await progress();
    }
  }
  return { wP, bg, kv, lt, lf, bassSalience, vocalSalience };
}

/** 2. Centre weight of bin k of a frame (its bins per channel): 1 in the centre, 0 beyond a pan of about 0.5. */
function centreOf(re: readonly Float32Array[], im: readonly Float32Array[], k: number): number {
  if (re.length < 2) return 1;
  const lr = re[0]![k]!;
  const li = im[0]![k]!;
  const rr = re[1]![k]!;
  const ri = im[1]![k]!;
  const el = lr * lr + li * li;
  const er = rr * rr + ri * ri;
  const psi = (2 * (lr * rr + li * ri)) / (el + er + EPS);
  return smoothstep(psi, TUNING.centreLow, TUNING.centreHigh);
}

/** The pan side of bin k of a frame, -1 left .. +1 right. */
function panOf(re: readonly Float32Array[], im: readonly Float32Array[], k: number): number {
  if (re.length < 2) return 0;
  const el = re[0]![k]! ** 2 + im[0]![k]! ** 2;
  const er = re[1]![k]! ** 2 + im[1]![k]! ** 2;
  return (Math.sqrt(er) - Math.sqrt(el)) / (Math.sqrt(er) + Math.sqrt(el) + EPS);
}

/** Comb weight of bin k: distance (in bins) from the nearest harmonic of f0, tolerance growing with frequency. */
export function comb(f0: number, k: number, binHz: number, maxHz: number, widthCents: number): number {
  if (f0 <= 0) return 0;
  const f = k * binHz;
  if (f < f0 * 0.5 || f > maxHz) return 0;
  const h = Math.max(1, Math.round(f / f0));
  const d = Math.abs(f - h * f0) / binHz;
  const sigma = Math.max(1.2, (h * f0 * (Math.pow(2, widthCents / 1200) - 1)) / binHz);
  return Math.exp(-0.5 * (d / sigma) ** 2);
}

interface PitchShape {
  /** Weight of the harmonic magnitude at each frequency, Hz. */
  band: (hz: number) => number;
  options: Omit<PitchOptions, 'sampleRate' | 'fftSize' | 'bins' | 'frames' | 'stride'>;
}

/** 3. The bass line's pitch on the low harmonic magnitude (all positions). */
const BASS_PITCH: PitchShape = {
  band: (hz: number) => 1 - smoothstep(hz, 400, 1200),
  options: {
    fminHz: 28,
    fmaxHz: 260,
    maxHarmonicHz: 1200,
    voicingThreshold: 0.25,
    salienceFloorDb: -20,
    jumpCost: 0.2,
  },
};

/**
 * 4. The vocal pitch on the centre-weighted harmonic magnitude, without the bass register (whose partials would
 * otherwise win).
 */
const VOCAL_PITCH: PitchShape = {
  band: (hz: number) => smoothstep(hz, 150, 300),
  options: {
    fminHz: 100,
    fmaxHz: 1000,
    maxHarmonicHz: 5000,
    voicingThreshold: TUNING.voicingThreshold,
    salienceFloorDb: TUNING.salienceFloorDb,
    octaveOddRatio: TUNING.octaveOddRatio,
  },
};

/** A pitch track on a salience of `analyse` (progress from `from` over `span`). */
async function pitchOf(
  salience: Float32Array,
  shape: StftShape,
  fs: number,
  pitch: PitchShape,
  from: number,
  span: number,
  tick: Tick,
): Promise<Float32Array> {
  const { bins, frames, n } = shape;
  const stride = pitchWidth(shape, fs, pitch.options);
  const track = await trackPitch(
    salience,
    { sampleRate: fs, fftSize: n, bins, frames, stride, ...pitch.options },
    (f) => tick(from + span * f),
  );
  return track.f0;
}

/** What the source weights are computed from. */
interface SourceModel {
  /** The mixture's STFT, frame by frame: the weights of frame t are computed from its bins once it is loaded. */
  src: StftFrames;
  fs: number;
  analysis: Analysis;
  vocalF0: Float32Array;
  bassF0: Float32Array;
  sources: readonly SeparatedStem[];
}

/**
 * 5. Source weights per bin (they sum to one): drums = wP, then within the harmonic part vocals, bass, guitars, and
 * the rest. Returns the function that fills one frame's weights (w[k * S + j]) from the frame `src` holds, computed
 * per frame when needed (every Wiener pass) rather than stored.
 */
function sourceWeights(m: SourceModel): (t: number, w: Float64Array) => void {
  const { src, analysis, vocalF0, bassF0, sources } = m;
  const { bins, n } = src.shape;
  const { wP, bg, kv, lf } = analysis;
  const { re, im, mag } = src;
  const binHz = m.fs / n;
  const S = sources.length;
  const idx = (s: SeparatedStem) => sources.indexOf(s);
  const iV = idx('vocals');
  const iD = idx('drums');
  const iB = idx('bass');
  const iG = idx('guitars');
  const iO = idx('other');
  // Share of a voiced comb bin left to the vocals by the sustained-accompaniment model (see backgroundHalfSec).
  const bgGate = (t: number, k: number): number => {
    if (!bg || k >= kv) return 1;
    const b = bg[t * kv + k]!;
    const x = mag[k]!;
    return (x * x) / (x * x + b * b + EPS);
  };
  const lowBass = Float64Array.from(
    { length: bins },
    (_, k) => 1 - smoothstep(k * binHz, TUNING.bassLowHz, TUNING.bassHighHz),
  );
  // Above 4 kHz, noise-like bins (the local frequency median close to the bin's own level) belong to the cymbals
  // and hats even when they sustain (a ride or crash wash looks harmonic to the time median).
  const airy = Float64Array.from({ length: bins }, (_, k) => smoothstep(k * binHz, TUNING.airLowHz, TUNING.airHighHz));
  let kAir = 0;
  while (kAir < bins && !(airy[kAir]! > 0)) kAir++;
  // The local noise level: the frequency median of the frame (the percussive median of `analyse`), where airy.
  const noise = new Float32Array(bins);
  const mf = new SlidingMedian(lf);
  const guitarBand = Float64Array.from(
    { length: bins },
    (_, k) => smoothstep(k * binHz, 60, 100) * (1 - smoothstep(k * binHz, 5000, 7000)),
  );
  return (t: number, w: Float64Array): void => {
    const fv = vocalF0[t]!;
    const fb = bassF0[t]!;
    const o = t * bins;
    if (iD >= 0) mf.run(mag, 0, 1, bins, noise, 0, 1, kAir, bins);
    for (let k = 0; k < bins; k++) {
      const wo = k * S;
      let rest = 1;
      if (iD >= 0) {
        let d = wP[o + k]!;
        if (airy[k]! > 0) {
          const flat = Math.min(1, noise[k]! / (mag[k]! + EPS));
          d = Math.max(d, airy[k]! * smoothstep(flat, TUNING.flatLow, TUNING.flatHigh));
        }
        w[wo + iD] = d;
        rest -= d;
      }
      if (iV >= 0) {
        const v =
          fv > 0
            ? rest *
              comb(fv, k, binHz, TUNING.vocalMaxHz, TUNING.vocalCombCents) *
              Math.pow(centreOf(re, im, k), TUNING.vocalCentreExponent) *
              bgGate(t, k)
            : 0;
        w[wo + iV] = v;
        rest -= v;
      }
      if (iB >= 0) {
        const v = rest * Math.max(lowBass[k]!, comb(fb, k, binHz, TUNING.bassCombMaxHz, TUNING.bassCombCents));
        w[wo + iB] = v;
        rest -= v;
      }
      if (iG >= 0) {
        const v = guitarBand[k]! > 0 ? rest * guitarBand[k]! * smoothstep(Math.abs(panOf(re, im, k)), 0.1, 0.35) : 0;
        w[wo + iG] = v;
        rest -= v;
      }
      w[wo + iO] = Math.max(0, rest);
    }
  };
}

/**
 * 6. Multichannel Wiener filter, overlap-added frame by frame into every source but the last; 7. the last source is
 * the mixture minus the others. The last source is written into `spare` when it is large enough (a buffer of the
 * analysis no longer needed once the filter is done), so that the stems do not need one more copy of the input.
 */
async function filterSources(
  chans: readonly Float32Array[],
  fs: number,
  src: StftFrames,
  sources: readonly SeparatedStem[],
  weights: (t: number, w: Float64Array) => void,
  spare: Float32Array,
  tick: Tick,
): Promise<Map<SeparatedStem, Pcm>> {
  const S = sources.length;
  const { length } = src.shape;
  const outputs: Float32Array[][] = sources.slice(0, -1).map(() => chans.map(() => new Float32Array(length)));
  const inv = new InverseStft(src.shape);
  await wienerFilter(src, S, weights, (t, j, c, re, im) => inv.addFrame(re, im, 0, t, outputs[j]![c]!), {
    skipLast: true,
    iterations: TUNING.wienerIterations,
    varianceExponent: TUNING.varianceExponent,
    tick: (f) => tick(0.56 + 0.42 * f),
  });
  const reuse = spare.length >= chans.length * length;
  const last: Float32Array[] = chans.map((x, c) => {
    const y = reuse ? spare.subarray(c * length, (c + 1) * length) : new Float32Array(length);
    y.set(x);
    for (const s of outputs) {
      const z = s[c]!;
      for (let i = 0; i < length; i++) y[i] = y[i]! - z[i]!;
    }
    return y;
  });
  const result = new Map<SeparatedStem, Pcm>();
  sources.forEach((s, j) => result.set(s, { sampleRate: fs, channels: j < S - 1 ? outputs[j]! : last }));
  return result;
}

/** Rounded summary of the pitch tracks for the report. */
function classicalDecisions(
  shape: StftShape,
  m: Analysis,
  vocalF0: Float32Array,
  bassF0: Float32Array,
): ClassicalDecisions {
  const { frames } = shape;
  const voiced = Array.from(vocalF0).filter((v) => v > 0);
  voiced.sort((a, b) => a - b);
  return {
    method: 'classical',
    fftSize: shape.n,
    hop: shape.hop,
    harmonicMedianFrames: m.lt,
    percussiveMedianBins: m.lf,
    vocalVoicedShare: Math.round((voiced.length / frames) * 1000) / 1000,
    vocalMedianF0Hz: voiced.length ? Math.round(voiced[voiced.length >> 1]! * 10) / 10 : null,
    bassVoicedShare: Math.round((Array.from(bassF0).filter((v) => v > 0).length / frames) * 1000) / 1000,
    wienerIterations: TUNING.wienerIterations,
  };
}

/**
 * Separates `pcm` into `stems` (any of vocals, drums, bass, guitars; `other` always comes last and takes the rest).
 * Stems not requested are part of `other`.
 *
 * Memory: the spectrogram is never held whole (for a stereo input it is four times the input's size, and each
 * per-cell quantity once). Each pass recomputes the STFT frame by frame from the input (`StftFrames`); between passes
 * only the percussive share of every cell (the input's size; its buffer then takes the last stem), the long median of
 * the vocal range (a third of that) and the pitch trackers' saliences (a quarter, until the tracks are found) are
 * kept. `blockFrames` (tests) sets the length of the first pass's blocks; the result does not depend on it.
 */
export async function separateClassical(
  pcm: Pcm,
  stems: readonly SeparatedStem[],
  tick: Tick = async () => undefined,
  blockFrames = BLOCK_FRAMES,
): Promise<ClassicalResult> {
  const fs = pcm.sampleRate;
  const chans = pcm.channels.slice(0, 2);
  const src = new StftFrames(chans, separationFftSize(fs));
  const shape = src.shape;
  const wantVocals = stems.includes('vocals');
  const wantBass = stems.includes('bass');
  const analysis = await analyse(src, fs, wantVocals, wantBass, Math.max(1, Math.round(blockFrames)), tick);
  const none = new Float32Array(shape.frames);
  const bassF0 = analysis.bassSalience
    ? await pitchOf(analysis.bassSalience, shape, fs, BASS_PITCH, 0.36, 0.06, tick)
    : none;
  analysis.bassSalience = null;
  const vocalF0 = analysis.vocalSalience
    ? await pitchOf(analysis.vocalSalience, shape, fs, VOCAL_PITCH, 0.42, 0.14, tick)
    : none;
  analysis.vocalSalience = null;
  const sources = sourceList(stems);
  const weights = sourceWeights({ src, fs, analysis, vocalF0, bassF0, sources });
  const separated = await filterSources(chans, fs, src, sources, weights, analysis.wP, tick);
  await tick(1);
  return { stems: separated, decisions: classicalDecisions(shape, analysis, vocalF0, bassF0) };
}

export interface WienerOptions {
  /** Do not compute the last source (the caller derives it as the mixture minus the others). */
  skipLast?: boolean;
  /** Filtering passes; each pass but the last re-estimates the spatial covariances from its output. Default 1. */
  iterations?: number;
  /** Source variance = mask^exponent x mixture power. Default 2. */
  varianceExponent?: number;
  tick?: Tick;
}

/**
 * Multichannel Wiener filtering of the mixture STFT with one spectral variance v_j = w_j^e P and one 2x2 spatial
 * covariance R_j(f) per source (time-invariant: panning does not move within a song), estimated from the masked
 * mixture. For mono input it reduces to the single-channel Wiener gains w_j^e / sum_k w_k^e. Every pass loads the
 * frames of `src` in order; `weightsOf(t, w)`, called once frame t is loaded, fills the S mask values of each of its
 * bins (w[k * S + j]); `emit(t, j, c, re, im)` receives each source's filtered frame (bins of channel c).
 */
export async function wienerFilter(
  src: StftFrames,
  S: number,
  weightsOf: (t: number, w: Float64Array) => void,
  emit: (t: number, j: number, c: number, re: Float64Array, im: Float64Array) => void,
  options: WienerOptions = {},
): Promise<void> {
  const { bins, frames } = src.shape;
  const C = src.re.length;
  const tick = options.tick ?? (async () => undefined);
  const J = options.skipLast ? S - 1 : S;
  const vexp = options.varianceExponent ?? 2;
  const pw = (x: number) => (vexp === 1 ? x : vexp === 2 ? x * x : Math.pow(x, vexp));
  const w = new Float64Array(bins * S);
  const fre = Array.from({ length: S * C }, () => new Float64Array(bins));
  const fim = Array.from({ length: S * C }, () => new Float64Array(bins));
  if (C === 1) {
    const X = src.re[0]!;
    const Y = src.im[0]!;
    for (let t = 0; t < frames; t++) {
      src.load(t);
      weightsOf(t, w);
      for (let k = 0; k < bins; k++) {
        let sum = 0;
        for (let j = 0; j < S; j++) sum += pw(w[k * S + j]!);
        for (let j = 0; j < J; j++) {
          const g = sum > 0 ? pw(w[k * S + j]!) / sum : j === S - 1 ? 1 : 0;
          fre[j]![k] = g * X[k]!;
          fim[j]![k] = g * Y[k]!;
        }
      }
      for (let j = 0; j < J; j++) emit(t, j, 0, fre[j]!, fim[j]!);
      if ((t & 127) === 127) await tick(t / frames);
    }
    return;
  }
  const [XLr, XRr] = src.re as [Float32Array, Float32Array];
  const [XLi, XRi] = src.im as [Float32Array, Float32Array];
  const power = src.power;
  // Spatial covariances: R_j(f) = sum_t w^2 x x^H, normalised to unit trace and regularised.
  const r11 = new Float64Array(S * bins);
  const r22 = new Float64Array(S * bins);
  const r12r = new Float64Array(S * bins);
  const r12i = new Float64Array(S * bins);
  for (let t = 0; t < frames; t++) {
    src.load(t);
    weightsOf(t, w);
    for (let k = 0; k < bins; k++) {
      const i = k;
      const lr = XLr[i]!;
      const li = XLi[i]!;
      const rr = XRr[i]!;
      const ri = XRi[i]!;
      const a = lr * lr + li * li;
      const b = rr * rr + ri * ri;
      // x_L conj(x_R)
      const cr = lr * rr + li * ri;
      const ci = li * rr - lr * ri;
      for (let j = 0; j < S; j++) {
        const wj = w[k * S + j]!;
        const w2 = wj * wj;
        if (w2 === 0) continue;
        const q = j * bins + k;
        r11[q] = r11[q]! + w2 * a;
        r22[q] = r22[q]! + w2 * b;
        r12r[q] = r12r[q]! + w2 * cr;
        r12i[q] = r12i[q]! + w2 * ci;
      }
    }
    if ((t & 255) === 255) await tick((0.35 * t) / frames);
  }
  const normalise = () => {
    for (let q = 0; q < S * bins; q++) {
      const tr = r11[q]! + r22[q]!;
      if (tr <= 0) {
        r11[q] = 0.5;
        r22[q] = 0.5;
        r12r[q] = 0;
        r12i[q] = 0;
        continue;
      }
      // Unit trace (the variance carries the level), plus a small diagonal load so no source is exactly rank one.
      const g = 1 / tr;
      r11[q] = r11[q]! * g + 0.01;
      r22[q] = r22[q]! * g + 0.01;
      r12r[q] = r12r[q]! * g;
      r12i[q] = r12i[q]! * g;
    }
  };
  normalise();
  const passes = Math.max(1, Math.round(options.iterations ?? 1));
  const n11 = new Float64Array(S * bins);
  const n22 = new Float64Array(S * bins);
  const n12r = new Float64Array(S * bins);
  const n12i = new Float64Array(S * bins);
  const v = new Float64Array(S);
  for (let pass = 0; pass < passes; pass++) {
    const final = pass === passes - 1;
    const JJ = final ? J : S;
    for (let t = 0; t < frames; t++) {
      src.load(t);
      weightsOf(t, w);
      for (let k = 0; k < bins; k++) {
        const i = k;
        const P = power[i]!;
        let s11 = 1e-12 + P * 1e-6;
        let s22 = s11;
        let s12r = 0;
        let s12i = 0;
        for (let j = 0; j < S; j++) {
          const wj = w[k * S + j]!;
          const vj = pw(wj) * P;
          v[j] = vj;
          const q = j * bins + k;
          s11 += vj * r11[q]!;
          s22 += vj * r22[q]!;
          s12r += vj * r12r[q]!;
          s12i += vj * r12i[q]!;
        }
        // Inverse of the Hermitian [[s11, s12], [conj(s12), s22]] applied to x.
        const inv = 1 / (s11 * s22 - (s12r * s12r + s12i * s12i));
        const lr = XLr[i]!;
        const li = XLi[i]!;
        const rr = XRr[i]!;
        const ri = XRi[i]!;
        const zLr = (s22 * lr - (s12r * rr - s12i * ri)) * inv;
        const zLi = (s22 * li - (s12r * ri + s12i * rr)) * inv;
        const zRr = (s11 * rr - (s12r * lr + s12i * li)) * inv;
        const zRi = (s11 * ri - (s12r * li - s12i * lr)) * inv;
        for (let j = 0; j < JJ; j++) {
          const vj = v[j]!;
          const L = j * C;
          if (vj === 0) {
            fre[L]![k] = 0;
            fim[L]![k] = 0;
            fre[L + 1]![k] = 0;
            fim[L + 1]![k] = 0;
            continue;
          }
          const q = j * bins + k;
          const a = r11[q]!;
          const d = r22[q]!;
          const br = r12r[q]!;
          const bi = r12i[q]!;
          // y = v R z, R = [[a, b], [conj(b), d]]
          const yLr = vj * (a * zLr + br * zRr - bi * zRi);
          const yLi = vj * (a * zLi + br * zRi + bi * zRr);
          const yRr = vj * (br * zLr + bi * zLi + d * zRr);
          const yRi = vj * (br * zLi - bi * zLr + d * zRi);
          if (final) {
            fre[L]![k] = yLr;
            fim[L]![k] = yLi;
            fre[L + 1]![k] = yRr;
            fim[L + 1]![k] = yRi;
          } else {
            n11[q] = n11[q]! + yLr * yLr + yLi * yLi;
            n22[q] = n22[q]! + yRr * yRr + yRi * yRi;
            n12r[q] = n12r[q]! + yLr * yRr + yLi * yRi;
            n12i[q] = n12i[q]! + yLi * yRr - yLr * yRi;
          }
        }
      }
      if (final)
        for (let j = 0; j < J; j++) for (let c = 0; c < C; c++) emit(t, j, c, fre[j * C + c]!, fim[j * C + c]!);
      if ((t & 127) === 127) await tick(0.35 + (0.65 * (pass + t / frames)) / passes);
    }
    if (!final) {
      // Spatial covariances re-estimated from the filtered sources (one EM step on R, variances kept).
      r11.set(n11);
      r22.set(n22);
      r12r.set(n12r);
      r12i.set(n12i);
      n11.fill(0);
      n22.fill(0);
      n12r.fill(0);
      n12i.fill(0);
      normalise();
    }
  }
}
