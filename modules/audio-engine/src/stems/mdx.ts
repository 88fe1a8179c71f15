/**
 * The neural path: an MDX-Net model in ONNX (the format the UVR community distributes), run with onnxruntime-node.
 *
 * `STEMS_MODEL` names the .onnx file; its STFT parameters come from a JSON file beside it (`<model>.json`, or the path
 * in `STEMS_MODEL_CONFIG`), with UVR's keys (`mdx_n_fft_scale_set`, `mdx_dim_f_set`, `mdx_dim_t_set` as a power of
 * two, `compensate`, `primary_stem`) or plain ones (`n_fft`, `dim_f`, `dim_t`, `hop_length`, `sample_rate`).
 *
 * Processing follows UVR's MDX inference: the stereo mixture (at the model's rate, 44.1 kHz) is cut into chunks of
 * hop x (dim_t - 1) samples that overlap by n_fft / 2 on each side; each chunk's STFT (Hann, centred with reflection
 * padding, as torch.stft) is laid out as [1, 4, dim_f, dim_t] (left re, left im, right re, right im; the first dim_f
 * bins, the three lowest zeroed), the model returns the primary stem's spectrogram in the same layout, the inverse
 * STFT (bins above dim_f zero) gives the chunk's estimate, and the centres of the chunks are joined. The result is
 * scaled by `compensate`. The complement is the mixture minus the primary stem, so the two always sum to the input.
 *
 * No model ships with the product and none is downloaded. onnxruntime-node is an optional dependency, loaded only
 * when a model is configured; without it the engine fails with ENGINE.TOOL_MISSING.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join } from 'node:path';
import { AnyFft } from '../dsp/any-fft';
import { hann } from '../dsp/fft';
import { InvalidOptionsError, ToolMissingError } from '../errors';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';
import type { SeparatedStem } from '../types';

export interface MdxConfig {
  nFft: number;
  hop: number;
  dimF: number;
  dimT: number;
  compensate: number;
  sampleRate: number;
  /** What the model outputs, as an engine stem, or 'instrumental' (everything but the vocals). */
  primary: SeparatedStem | 'instrumental';
}

/** The subset of onnxruntime-node's API used here (declared locally: the package is optional). */
interface OrtTensor {
  data: Float32Array;
  dims: readonly number[];
}
interface OrtSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  release?(): Promise<void>;
}
interface OrtModule {
  Tensor: new (type: 'float32', data: Float32Array, dims: readonly number[]) => OrtTensor;
  InferenceSession: {
    create(path: string, options?: Record<string, unknown>): Promise<OrtSession>;
  };
}

let ortModule: OrtModule | null = null;

/** Loads onnxruntime-node (optional dependency) or fails with ENGINE.TOOL_MISSING. */
export function loadOrt(): OrtModule {
  if (ortModule) return ortModule;
  try {
    const load = createRequire(__filename);
    ortModule = load('onnxruntime-node') as OrtModule;
    return ortModule;
  } catch (error) {
    throw new ToolMissingError(
      'onnxruntime-node (needed by STEMS_MODEL)',
      `ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
}

const PRIMARY: Record<string, SeparatedStem | 'instrumental'> = {
  vocals: 'vocals',
  vocal: 'vocals',
  instrumental: 'instrumental',
  inst: 'instrumental',
  drums: 'drums',
  bass: 'bass',
  other: 'other',
  guitar: 'guitars',
  guitars: 'guitars',
  piano: 'piano',
};

/** Reads and checks the model's JSON parameters. */
export function parseMdxConfig(json: unknown): MdxConfig {
  if (!json || typeof json !== 'object')
    throw new InvalidOptionsError('the STEMS_MODEL parameters must be a JSON object');
  const o = json as Record<string, unknown>;
  const num = (keys: string[], fallback?: number): number => {
    for (const k of keys) if (typeof o[k] === 'number' && Number.isFinite(o[k])) return o[k];
    if (fallback !== undefined) return fallback;
    throw new InvalidOptionsError(`the STEMS_MODEL parameters lack ${keys.join(' or ')}`);
  };
  const nFft = num(['n_fft', 'mdx_n_fft_scale_set']);
  const dimF = num(['dim_f', 'mdx_dim_f_set']);
  const dimTRaw = num(['dim_t', 'mdx_dim_t_set']);
  // UVR stores dim_t as a power of two (8 -> 256); plain configs give the frame count.
  const dimT = dimTRaw <= 16 ? 2 ** dimTRaw : dimTRaw;
  const hop = num(['hop_length', 'hop'], 1024);
  const compensate = num(['compensate'], 1);
  const sampleRate = num(['sample_rate'], 44100);
  const primaryName = String(o.primary_stem ?? 'Vocals').toLowerCase();
  const primary = PRIMARY[primaryName];
  if (!primary) throw new InvalidOptionsError(`unsupported primary_stem "${String(o.primary_stem)}"`);
  if (
    !Number.isInteger(nFft) ||
    nFft < 4 ||
    nFft % 2 !== 0 ||
    !Number.isInteger(hop) ||
    hop < 1 ||
    !Number.isInteger(dimF) ||
    dimF < 4 ||
    dimF > nFft / 2 + 1
  ) {
    throw new InvalidOptionsError('invalid STFT parameters for STEMS_MODEL', { nFft, hop, dimF });
  }
  if (!Number.isInteger(dimT) || dimT < 2 || hop * (dimT - 1) <= nFft) {
    throw new InvalidOptionsError('dim_t too small for n_fft (a chunk must be longer than one FFT)', { dimT, nFft });
  }
  return { nFft, hop, dimF, dimT, compensate, sampleRate, primary };
}

/** The configured model (from STEMS_MODEL), or null when none is. */
export async function configuredModel(): Promise<{ path: string; config: MdxConfig } | null> {
  const path = process.env.STEMS_MODEL;
  if (!path) return null;
  const configPath = process.env.STEMS_MODEL_CONFIG ?? join(dirname(path), `${basename(path, extname(path))}.json`);
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch {
    throw new InvalidOptionsError(`STEMS_MODEL is set but its parameters file ${basename(configPath)} is missing`);
  }
  return { path, config: parseMdxConfig(JSON.parse(text) as unknown) };
}

/** torch.stft(center=True, pad_mode='reflect', window=hann(periodic)) of a chunk, bins 0..dimF-1, into `out`. */
function chunkSpectrogram(
  chunk: readonly Float32Array[],
  cfg: MdxConfig,
  fft: AnyFft,
  win: Float64Array,
  out: Float32Array,
): void {
  const { nFft: n, hop, dimF, dimT } = cfg;
  const half = n / 2;
  const len = chunk[0]!.length;
  const buf = new Float64Array(n);
  const re = new Float64Array(n / 2 + 1);
  const im = new Float64Array(n / 2 + 1);
  for (let c = 0; c < 2; c++) {
    const x = chunk[c]!;
    for (let t = 0; t < dimT; t++) {
      for (let i = 0; i < n; i++) {
        let j = t * hop + i - half;
        // reflection padding (no repeat of the edge sample)
        if (j < 0) j = -j;
        if (j >= len) j = 2 * (len - 1) - j;
        buf[i] = (x[j] ?? 0) * win[i]!;
      }
      fft.forward(buf, re, im);
      for (let k = 0; k < dimF; k++) {
        const v = k < 3 ? 0 : 1;
        out[(2 * c * dimF + k) * dimT + t] = re[k]! * v;
        out[((2 * c + 1) * dimF + k) * dimT + t] = im[k]! * v;
      }
    }
  }
}

/** torch.istft(center=True) of the model output (bins above dimF zero), length hop * (dimT - 1), per channel. */
function chunkSignal(spec: Float32Array, cfg: MdxConfig, fft: AnyFft, win: Float64Array): Float32Array[] {
  const { nFft: n, hop, dimF, dimT } = cfg;
  const half = n / 2;
  const len = hop * (dimT - 1);
  const full = len + n;
  const re = new Float64Array(n / 2 + 1);
  const im = new Float64Array(n / 2 + 1);
  const frame = new Float64Array(n);
  const env = new Float64Array(full);
  for (let t = 0; t < dimT; t++) for (let i = 0; i < n; i++) env[t * hop + i] = env[t * hop + i]! + win[i]! ** 2;
  const out: Float32Array[] = [];
  for (let c = 0; c < 2; c++) {
    const acc = new Float64Array(full);
    for (let t = 0; t < dimT; t++) {
      re.fill(0);
      im.fill(0);
      for (let k = 0; k < dimF; k++) {
        re[k] = spec[(2 * c * dimF + k) * dimT + t]!;
        im[k] = spec[((2 * c + 1) * dimF + k) * dimT + t]!;
      }
      im[0] = 0;
      im[n / 2] = 0;
      fft.inverse(re, im, frame);
      for (let i = 0; i < n; i++) acc[t * hop + i] = acc[t * hop + i]! + frame[i]! * win[i]!;
    }
    const y = new Float32Array(len);
    for (let i = 0; i < len; i++) {
      const e = env[i + half]!;
      y[i] = e > 1e-11 ? acc[i + half]! / e : 0;
    }
    out.push(y);
  }
  return out;
}

/**
 * Runs the model over a stereo mixture at the model's rate; returns the primary stem (same length, same rate).
 */
export async function runMdx(modelPath: string, cfg: MdxConfig, mixture: Pcm, tick: Tick): Promise<Pcm> {
  if (mixture.sampleRate !== cfg.sampleRate) {
    throw new InvalidOptionsError(`the model expects ${cfg.sampleRate} Hz input`, { sampleRate: mixture.sampleRate });
  }
  const ort = loadOrt();
  const session = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  try {
    const stereo =
      mixture.channels.length >= 2 ? mixture.channels.slice(0, 2) : [mixture.channels[0]!, mixture.channels[0]!];
    const n = frameCount(mixture);
    const { nFft, hop, dimF, dimT } = cfg;
    const trim = nFft / 2;
    const chunkSize = hop * (dimT - 1);
    const gen = chunkSize - 2 * trim;
    const pad = gen - (n % gen);
    const total = trim + n + pad + trim;
    const padded = stereo.map((x) => {
      const p = new Float32Array(total);
      p.set(x, trim);
      return p;
    });
    const fft = new AnyFft(nFft);
    const win = hann(nFft);
    const input = new Float32Array(4 * dimF * dimT);
    const out = [new Float32Array(n), new Float32Array(n)];
    const inputName = session.inputNames[0] ?? 'input';
    const outputName = session.outputNames[0] ?? 'output';
    const chunks = Math.ceil((n + pad) / gen);
    for (let q = 0, i = 0; i < n + pad; i += gen, q++) {
      const chunk = padded.map((p) => p.subarray(i, i + chunkSize));
      chunkSpectrogram(chunk, cfg, fft, win, input);
      // Inference runs off the event loop; keep progress events flowing (and notice a cancel) while it does.
      const heartbeat = setInterval(() => void tick(q / chunks).catch(() => undefined), 300);
      let result: Record<string, OrtTensor>;
      try {
        result = await session.run({ [inputName]: new ort.Tensor('float32', input, [1, 4, dimF, dimT]) });
      } finally {
        clearInterval(heartbeat);
      }
      const spec = result[outputName];
      if (!spec || spec.data.length !== input.length) {
        throw new InvalidOptionsError('the model output does not have the input shape [1, 4, dim_f, dim_t]', {
          dims: spec?.dims,
        });
      }
      const y = chunkSignal(spec.data, cfg, fft, win);
      for (let c = 0; c < 2; c++) {
        const src = y[c]!;
        const dst = out[c]!;
        for (let k = 0; k < gen; k++) {
          const at = i + k;
          if (at >= n) break;
          dst[at] = src[trim + k]! * cfg.compensate;
        }
      }
      await tick((q + 1) / chunks);
    }
    const channels = mixture.channels.length >= 2 ? out : [out[0]!.map((v, k) => (v + out[1]![k]!) / 2)];
    return { sampleRate: mixture.sampleRate, channels };
  } finally {
    await session.release?.();
  }
}
