/**
 * A try for issue 29 (sub-stems), used by no mode: the spatial model of a studio mix as a multichannel Wiener filter.
 * Each part sits at a fixed place (amplitude panning: a rank-one spatial covariance, slightly loaded), doubled and
 * reverberant parts are diffuse (identity), and the sources' variances come from multichannel NMF: the
 * Itakura-Saito multiplicative updates of Sawada, Kameoka, Araki & Ueda (2013, "Multichannel extensions of
 * non-negative matrix factorization with complex-valued data") with every source's spatial covariance held fixed, as
 * in Ozerov & Fevotte (2010). The NMF starts from the bins' places (a pan-membership of coherent bins, the diffuse
 * share from their incoherence, fitted by KL-NMF first): from random starts the backing voice went to one side or
 * the other from run to run.
 *
 * It scores, on the sub-stem songs (`SUBSTEM_SONGS`), the left source against the acoustic guitar, the right one
 * against the electric and the diffuse one against the backing voice, and with `--oracle` the same filter given the
 * true variances (what the spatial model can give at best). The places are the arrangement's own (its MIDI pans
 * through fluidsynth's pan law): finding a source 16 dB under the mix from the mixture alone is not solved here (on
 * these songs the electric guitar makes no peak in the histogram of the bins' pans). What it measured, and why no mode
 * uses it yet, is in docs/engine.md ("Fourth round of tries").
 *
 *   node scripts/build-server.mjs --quiet
 *   node modules/audio-engine/dist/eval/try-spatial-mnmf.js [--song duet-ballad] [--k 12] [--iterations 20]
 *     [--seed 7] [--load 0.02] [--width 0.12] [--pair 0.443] [--comb] [--oracle]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pcm } from '../src/pcm';
import { comb } from '../src/stems/classical';
import { pitchRowBins, trackPitch } from '../src/stems/pitch';
import { InverseStft, type Spectrogram, stft } from '../src/stems/stft';
import { type RenderedSong, SUBSTEM_SONGS, renderMultitrack, sumParts } from './multitrack';
import { sdr } from './separation';

const FFT = 4096;
/** Highest frequency the NMF models; above it every bin goes to the centre source (the sub-stems score little there). */
const MODEL_MAX_HZ = 8000;
const START_ITERATIONS = 10;

interface Options {
  songs: string[];
  k: number;
  iterations: number;
  oracle: boolean;
  seed: number;
  /** Diagonal load of a panned source's spatial covariance. */
  load: number;
  /** Width (in pan index) of the pan membership that starts the NMF. */
  width: number;
  /**
   * The place (pan index, either side) of a doubled part: a source of its own made of two incoherent copies at -pair
   * and +pair with one variance, scored as the backing voice with the diffuse source beside it. Null: none.
   */
  pair: number | null;
  /** Keep of the backing estimate only the harmonics of its own predominant pitch (tracked on it). */
  comb: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    songs: SUBSTEM_SONGS.map((s) => s.name),
    k: 12,
    iterations: 20,
    oracle: false,
    seed: 7,
    load: 0.02,
    width: 0.12,
    pair: null,
    comb: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => argv[++i] ?? '';
    if (arg === '--song') options.songs = next().split(',');
    else if (arg === '--k') options.k = Number(next());
    else if (arg === '--iterations') options.iterations = Number(next());
    else if (arg === '--seed') options.seed = Number(next());
    else if (arg === '--load') options.load = Number(next());
    else if (arg === '--width') options.width = Number(next());
    else if (arg === '--pair') options.pair = Number(next());
    else if (arg === '--comb') options.comb = true;
    else if (arg === '--oracle') options.oracle = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

/** The pan index (|R| - |L|) / (|R| + |L|) of a MIDI pan through fluidsynth's law (a quarter sine over -500..500). */
function panIndexOfMidi(pan: number): number {
  const c = Math.max(-500, Math.min(500, ((pan - 64) / 64) * 500));
  const theta = ((c + 500) / 1000) * (Math.PI / 2);
  const l = Math.cos(theta);
  const r = Math.sin(theta);
  return (r - l) / (r + l);
}

/** The spatial covariance [r11, r12, r22] of a source panned to index p (gains (1 - p, 1 + p), unit norm). */
function pannedCovariance(p: number, load: number): [number, number, number] {
  const n = Math.hypot(1 - p, 1 + p);
  const a = (1 - p) / n;
  const b = (1 + p) / n;
  return [a * a + load, a * b, b * b + load];
}

/** The mixture's bins below MODEL_MAX_HZ, frequency-major (f * T + t), and the filter that splits them. */
class SpatialModel {
  readonly F: number;
  readonly T: number;
  readonly N: number;
  readonly xl: [Float32Array, Float32Array];
  readonly xr: [Float32Array, Float32Array];
  readonly floor: number;
  /** Per source, its variance of every modelled bin. */
  readonly v: Float32Array[];

  constructor(
    readonly X: Spectrogram,
    readonly sampleRate: number,
    readonly R: ReadonlyArray<readonly [number, number, number]>,
  ) {
    const { bins, frames } = X;
    this.F = Math.min(bins, Math.ceil(MODEL_MAX_HZ / (sampleRate / FFT)));
    this.T = frames;
    this.N = this.F * this.T;
    const make = (): [Float32Array, Float32Array] => [new Float32Array(this.N), new Float32Array(this.N)];
    this.xl = make();
    this.xr = make();
    let power = 0;
    for (let t = 0; t < frames; t++) {
      for (let f = 0; f < this.F; f++) {
        const i = t * bins + f;
        const q = f * frames + t;
        this.xl[0][q] = X.re[0]![i]!;
        this.xl[1][q] = X.im[0]![i]!;
        this.xr[0][q] = X.re[1]![i]!;
        this.xr[1][q] = X.im[1]![i]!;
        power += (X.re[0]![i]! ** 2 + X.im[0]![i]! ** 2 + X.re[1]![i]! ** 2 + X.im[1]![i]! ** 2) / 2;
      }
    }
    this.floor = 1e-9 * (power / this.N);
    this.v = R.map(() => new Float32Array(this.N));
  }

  /** z = S^-1 x at bin q, with S the model's covariance; and S^-1 itself as [i11, i12, i22]. */
  private solve(q: number, z: Float64Array, inv: Float64Array): void {
    let s11 = this.floor;
    let s22 = this.floor;
    let s12 = 0;
    for (let j = 0; j < this.R.length; j++) {
      const vj = this.v[j]![q]!;
      const r = this.R[j]!;
      s11 += vj * r[0];
      s12 += vj * r[1];
      s22 += vj * r[2];
    }
    const det = s11 * s22 - s12 * s12;
    inv[0] = s22 / det;
    inv[1] = -s12 / det;
    inv[2] = s11 / det;
    const [i11, i12, i22] = [inv[0], inv[1], inv[2]];
    z[0] = i11 * this.xl[0][q]! + i12 * this.xr[0][q]!;
    z[1] = i11 * this.xl[1][q]! + i12 * this.xr[1][q]!;
    z[2] = i12 * this.xl[0][q]! + i22 * this.xr[0][q]!;
    z[3] = i12 * this.xl[1][q]! + i22 * this.xr[1][q]!;
  }

  /** The statistics of the IS multiplicative updates: a_j = z^H R_j z and b_j = tr(S^-1 R_j) at every bin. */
  statistics(a: Float64Array[], b: Float64Array[]): void {
    const z = new Float64Array(4);
    const inv = new Float64Array(3);
    for (let q = 0; q < this.N; q++) {
      this.solve(q, z, inv);
      const zz11 = z[0]! * z[0]! + z[1]! * z[1]!;
      const zz22 = z[2]! * z[2]! + z[3]! * z[3]!;
      const zz12 = z[0]! * z[2]! + z[1]! * z[3]!;
      for (let j = 0; j < this.R.length; j++) {
        const [r11, r12, r22] = this.R[j]!;
        a[j]![q] = r11 * zz11 + 2 * r12 * zz12 + r22 * zz22;
        b[j]![q] = inv[0]! * r11 + 2 * inv[1]! * r12 + inv[2]! * r22;
      }
    }
  }

  /** Each source's Wiener estimate v_j R_j S^-1 x (bins above the model to source `rest`), as audio. */
  async filter(rest: number): Promise<Pcm[]> {
    const { bins, frames } = this.X;
    const { sampleRate } = this;
    const J = this.R.length;
    const out = Array.from({ length: J }, () =>
      [0, 1].map(() => ({ re: new Float32Array(bins * frames), im: new Float32Array(bins * frames) })),
    );
    const z = new Float64Array(4);
    const inv = new Float64Array(3);
    for (let t = 0; t < frames; t++) {
      for (let f = 0; f < bins; f++) {
        const i = t * bins + f;
        if (f >= this.F) {
          for (let c = 0; c < 2; c++) {
            out[rest]![c]!.re[i] = this.X.re[c]![i]!;
            out[rest]![c]!.im[i] = this.X.im[c]![i]!;
          }
          continue;
        }
        const q = f * frames + t;
        this.solve(q, z, inv);
        for (let j = 0; j < J; j++) {
          const vj = this.v[j]![q]!;
          const [a, b, d] = this.R[j]!;
          out[j]![0]!.re[i] = vj * (a * z[0]! + b * z[2]!);
          out[j]![0]!.im[i] = vj * (a * z[1]! + b * z[3]!);
          out[j]![1]!.re[i] = vj * (b * z[0]! + d * z[2]!);
          out[j]![1]!.im[i] = vj * (b * z[1]! + d * z[3]!);
        }
      }
    }
    const inverse = new InverseStft(this.X);
    return Promise.all(
      out.map(async (channels) => ({
        sampleRate,
        channels: await Promise.all(channels.map((c) => inverse.run(c.re, c.im))),
      })),
    );
  }
}

/** A multiplicative update's factor, left at 1 where it is not finite (a source vanished from every bin of a row). */
function step(num: number, den: number, sqrt: boolean): number {
  const ratio = num / den;
  if (!Number.isFinite(ratio)) return 1;
  return sqrt ? Math.sqrt(ratio) : ratio;
}

/** Non-negative factors of one source's variance: W (F x K) and H (K x T). */
class Factors {
  readonly w: Float32Array;
  readonly h: Float32Array;

  constructor(
    readonly F: number,
    readonly T: number,
    readonly K: number,
    random: () => number,
    scale: number,
  ) {
    this.w = Float32Array.from({ length: F * K }, () => 0.5 + random());
    this.h = Float32Array.from({ length: K * T }, () => (0.5 + random()) * scale);
  }

  product(v: Float32Array): void {
    const { F, T, K, w, h } = this;
    v.fill(0);
    for (let f = 0; f < F; f++) {
      const o = f * T;
      for (let k = 0; k < K; k++) {
        const wk = w[f * K + k]!;
        const ho = k * T;
        for (let t = 0; t < T; t++) v[o + t] = v[o + t]! + wk * h[ho + t]!;
      }
    }
  }

  /** W <- W * f(sum_t A H / sum_t B H), f = sqrt for the IS updates and identity for KL (where B is 1). */
  updateW(a: Float32Array | Float64Array, b: Float32Array | Float64Array, sqrt: boolean): void {
    const { F, T, K, w, h } = this;
    for (let f = 0; f < F; f++) {
      const o = f * T;
      for (let k = 0; k < K; k++) {
        const ho = k * T;
        let num = 0;
        let den = 0;
        for (let t = 0; t < T; t++) {
          num += a[o + t]! * h[ho + t]!;
          den += b[o + t]! * h[ho + t]!;
        }
        w[f * K + k] = w[f * K + k]! * step(num, den, sqrt);
      }
    }
  }

  updateH(a: Float32Array | Float64Array, b: Float32Array | Float64Array, sqrt: boolean): void {
    const { F, T, K, w, h } = this;
    const num = new Float64Array(K * T);
    const den = new Float64Array(K * T);
    for (let f = 0; f < F; f++) {
      const o = f * T;
      for (let k = 0; k < K; k++) {
        const wk = w[f * K + k]!;
        const ho = k * T;
        for (let t = 0; t < T; t++) {
          num[ho + t] = num[ho + t]! + wk * a[o + t]!;
          den[ho + t] = den[ho + t]! + wk * b[o + t]!;
        }
      }
    }
    for (let q = 0; q < K * T; q++) {
      h[q] = h[q]! * step(num[q]!, den[q]!, sqrt);
    }
  }

  /** Columns of W to unit mean, the scale moved to H. */
  normalise(): void {
    const { F, T, K, w, h } = this;
    for (let k = 0; k < K; k++) {
      let s = 0;
      for (let f = 0; f < F; f++) s += w[f * K + k]!;
      s /= F;
      if (!(s > 0)) continue;
      for (let f = 0; f < F; f++) w[f * K + k] = w[f * K + k]! / s;
      for (let t = 0; t < T; t++) h[k * T + t] = h[k * T + t]! * s;
    }
  }
}

/** The covariance of two incoherent copies of one part at -p and +p: the mean of their rank-one covariances. */
function pairCovariance(p: number): [number, number, number] {
  const [a, b] = [pannedCovariance(-p, 0), pannedCovariance(p, 0)];
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
}

/**
 * The starting variances: coherent bins shared between the panned sources by place, incoherence to the diffuse one;
 * with a pair, the bins near the centre whose coherence is the pair's own (2 r12) are its.
 */
function startingVariances(m: SpatialModel, places: readonly number[], options: Options): Float32Array[] {
  const { width, pair } = options;
  const pairCoherence = pair === null ? 0 : 2 * pairCovariance(pair)[1];
  const J = places.length + (pair === null ? 1 : 2);
  const start = Array.from({ length: J }, () => new Float32Array(m.N));
  for (let q = 0; q < m.N; q++) {
    const lr = m.xl[0][q]!;
    const li = m.xl[1][q]!;
    const rr = m.xr[0][q]!;
    const ri = m.xr[1][q]!;
    const el = Math.hypot(lr, li);
    const er = Math.hypot(rr, ri);
    const power = (el * el + er * er) / 2;
    const pan = (er - el) / (er + el + 1e-20);
    const coherence = Math.max(0, (lr * rr + li * ri) / (el * er + 1e-20));
    const shares = places.map((p) => coherence * Math.exp(-0.5 * ((pan - p) / width) ** 2));
    if (pair !== null) {
      shares.push(Math.max(0, 1 - Math.abs(coherence - pairCoherence) / 0.3) * Math.exp(-0.5 * (pan / 0.2) ** 2));
    }
    shares.push(1 - coherence + 0.05);
    const total = shares.reduce((x, y) => x + y, 0);
    for (let j = 0; j < J; j++) start[j]![q] = (power * shares[j]!) / total + m.floor;
  }
  return start;
}

async function multichannelNmf(m: SpatialModel, places: readonly number[], options: Options): Promise<void> {
  let state = options.seed;
  const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
  const J = m.R.length;
  const start = startingVariances(m, places, options);
  const meanPower = start.reduce((s, v) => s + v.reduce((x, y) => x + y, 0), 0) / m.N;
  const factors = m.R.map(() => new Factors(m.F, m.T, options.k, random, meanPower / options.k / J));
  // KL-NMF of each source's starting variances: A = Y / V, B = 1.
  const ones = new Float32Array(m.N).fill(1);
  const ratio = new Float32Array(m.N);
  const fit = (j: number) => {
    const v = m.v[j]!;
    const y = start[j]!;
    factors[j]!.product(v);
    for (let q = 0; q < m.N; q++) ratio[q] = y[q]! / (v[q]! + 1e-30);
  };
  for (let it = 0; it < START_ITERATIONS; it++) {
    for (let j = 0; j < J; j++) {
      fit(j);
      factors[j]!.updateH(ratio, ones, false);
      fit(j);
      factors[j]!.updateW(ratio, ones, false);
    }
  }
  const a = m.R.map(() => new Float64Array(m.N));
  const b = m.R.map(() => new Float64Array(m.N));
  const started = Date.now();
  for (let it = 0; it < options.iterations; it++) {
    for (const update of ['W', 'H'] as const) {
      for (let j = 0; j < J; j++) factors[j]!.product(m.v[j]!);
      m.statistics(a, b);
      for (let j = 0; j < J; j++) {
        if (update === 'W') factors[j]!.updateW(a[j]!, b[j]!, true);
        else factors[j]!.updateH(a[j]!, b[j]!, true);
      }
    }
    for (const f of factors) f.normalise();
    if ((it + 1) % 10 === 0)
      process.stderr.write(`  iteration ${it + 1}, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  for (let j = 0; j < J; j++) factors[j]!.product(m.v[j]!);
}

/** The true variances (each truth's mean power per channel at every modelled bin). */
async function oracleVariances(m: SpatialModel, sources: readonly Pcm[]): Promise<void> {
  for (let j = 0; j < sources.length; j++) {
    const S = await stft(sources[j]!.channels, FFT);
    const v = m.v[j]!;
    for (let t = 0; t < m.T; t++) {
      for (let f = 0; f < m.F; f++) {
        const i = t * S.bins + f;
        v[f * m.T + t] = (S.re[0]![i]! ** 2 + S.im[0]![i]! ** 2 + S.re[1]![i]! ** 2 + S.im[1]![i]! ** 2) / 2 + m.floor;
      }
    }
  }
}

function minus(a: Pcm, parts: readonly Pcm[]): Pcm {
  return {
    sampleRate: a.sampleRate,
    channels: a.channels.map((x, c) => x.map((value, i) => parts.reduce((s, p) => s - p.channels[c]![i]!, value))),
  };
}

/**
 * The harmonics of `pcm`'s predominant pitch (tracked on its own magnitude, the vocal tracker's range), through the
 * classical separator's vocal comb (40 cents beyond the window's main lobe).
 */
async function pitchComb(pcm: Pcm): Promise<Pcm> {
  const X = await stft(pcm.channels, FFT);
  const { bins, frames } = X;
  const binHz = pcm.sampleRate / FFT;
  const o = {
    sampleRate: pcm.sampleRate,
    fftSize: FFT,
    bins,
    frames,
    fminHz: 100,
    fmaxHz: 1000,
    maxHarmonicHz: 5000,
    voicingThreshold: 0.4,
    salienceFloorDb: -13,
  };
  const stride = pitchRowBins(o);
  const salience = new Float32Array(frames * stride);
  for (let t = 0; t < frames; t++) {
    for (let k = 0; k < stride; k++) {
      const i = t * bins + k;
      const m = Math.hypot(X.re[0]![i]!, X.im[0]![i]!, X.re[1]![i]!, X.im[1]![i]!);
      salience[t * stride + k] = k * binHz > 150 ? m : 0;
    }
  }
  const { f0 } = await trackPitch(salience, { ...o, stride });
  for (let t = 0; t < frames; t++) {
    for (let k = 0; k < bins; k++) {
      const g = comb(f0[t]!, k, binHz, MODEL_MAX_HZ, 40);
      for (let c = 0; c < 2; c++) {
        X.re[c]![t * bins + k] = X.re[c]![t * bins + k]! * g;
        X.im[c]![t * bins + k] = X.im[c]![t * bins + k]! * g;
      }
    }
  }
  const inverse = new InverseStft(X);
  return {
    sampleRate: pcm.sampleRate,
    channels: await Promise.all([0, 1].map((c) => inverse.run(X.re[c]!, X.im[c]!))),
  };
}

function plus(a: Pcm, b: Pcm): Pcm {
  return {
    sampleRate: a.sampleRate,
    channels: a.channels.map((x, c) => x.map((value, i) => value + b.channels[c]![i]!)),
  };
}

async function trySong(song: RenderedSong, options: Options): Promise<string> {
  const truth = (name: string) => sumParts(song, (p) => p.substem === name);
  const acoustic = truth('acoustic_guitars');
  const electric = truth('electric_guitars');
  const backing = truth('backing_vocals');
  const placeOf = (name: string) => panIndexOfMidi(song.parts.find((p) => p.part.substem === name)!.part.pan);
  const places = [placeOf('acoustic_guitars'), 0, placeOf('electric_guitars')];
  const R = [
    ...places.map((p) => pannedCovariance(p, options.load)),
    ...(options.pair === null ? [] : [pairCovariance(options.pair)]),
    [0.5, 0, 0.5] as const,
  ];
  const X = await stft(song.mixture.channels, FFT);
  const model = new SpatialModel(X, song.mixture.sampleRate, R);
  if (options.oracle) {
    const centre = minus(song.mixture, [acoustic, electric, backing]);
    if (options.pair !== null) throw new Error('--oracle takes no --pair');
    await oracleVariances(model, [acoustic, centre, electric, backing]);
  } else {
    await multichannelNmf(model, places, options);
  }
  const [left, , right, ...others] = await model.filter(1);
  const diffuse = options.comb ? await pitchComb(others.at(-1)!) : others.at(-1)!;
  const pair = options.pair === null ? null : others[0]!;
  return [
    song.spec.name.padEnd(14),
    `places ${places.map((p) => p.toFixed(3)).join(' ')}`,
    `acoustic ${sdr(left!, acoustic).toFixed(2)}`,
    `electric ${sdr(right!, electric).toFixed(2)}`,
    pair
      ? `backing: the pair ${sdr(pair, backing).toFixed(2)}, with the diffuse ${sdr(plus(pair, diffuse), backing).toFixed(2)} dB`
      : `backing ${sdr(diffuse, backing).toFixed(2)} dB`,
  ].join('  ');
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), 'kora-try-mnmf-'));
  try {
    for (const name of options.songs) {
      const spec = SUBSTEM_SONGS.find((s) => s.name === name);
      if (!spec) throw new Error(`no sub-stem song ${name}`);
      process.stderr.write(`${name}: rendering part by part...\n`);
      const song = await renderMultitrack(dir, spec);
      const started = Date.now();
      const line = await trySong(song, options);
      console.log(`${line}  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
