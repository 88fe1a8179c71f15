/**
 * Neural noise suppression with RNNoise (J.-M. Valin, "A Hybrid DSP/Deep Learning Approach to Real-Time Full-Band
 * Speech Enhancement", MMSP 2018), run as WebAssembly. RNNoise works on 48 kHz audio in 10 ms frames (480 samples)
 * scaled to the int16 range and returns a voice-activity probability per frame. Its output lags the input by one
 * frame (480 samples, measured in the tests), which is compensated here so the result stays sample-aligned with the
 * input.
 *
 * The binaries are @shiguredo/rnnoise-wasm 2022.2.0's (Apache-2.0; RNNoise itself BSD-3-Clause): the classic RNNoise
 * model built twice, with and without WebAssembly SIMD. The SIMD build runs the 45 s evaluation speech in about 0.37 s
 * of CPU against 0.57 s for the scalar build, whose output is bit-identical to the @echogarden/rnnoise-wasm build used
 * before; the SIMD build's differs by float rounding only (-138 dB, voice probabilities within 1.2e-6). The package's
 * own loader fetches the binary with `fetch()` (browsers only), so the module is instantiated here: it imports three
 * small Emscripten runtime functions and exports the RNNoise C API with malloc and free. The package's later version
 * (2025.1.5) carries the larger RNNoise 0.2 model (3.2 s of CPU for the same 45 s) and no SIMD build, hence the
 * dependency is pinned to this exact version.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { InternalEngineError } from '../errors';
import type { Tick } from '../stage/context';

export const RNNOISE_RATE = 48000;
export const RNNOISE_FRAME = 480;
/** Output delay of rnnoise_process_frame, samples. */
export const RNNOISE_DELAY = 480;
/** Frames copied into WebAssembly memory at once (2.56 s of audio, 480 KiB), and between two progress ticks. */
const BLOCK_FRAMES = 256;
/** RNNoise takes and returns samples on the int16 scale. */
const INT16_SCALE = 32768;
const WASM_PAGE = 65536;

/** The slice of the WebAssembly JS API used here (the project's lib settings carry no WebAssembly typings). */
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
}

/** What the engine calls in the Emscripten build (the RNNoise C API, malloc and free, the runtime's start-up). */
export interface RnnoiseModule {
  memory: WasmMemory;
  emscripten_stack_init(): void;
  __wasm_call_ctors(): void;
  malloc(bytes: number): number;
  free(pointer: number): void;
  /** A denoiser state for `model` (0: the built-in model). */
  rnnoise_create(model: number): number;
  rnnoise_destroy(state: number): void;
  /** Denoises one 480-sample frame (int16-scaled floats) from `input` into `out`; returns the voice probability 0..1. */
  rnnoise_process_frame(state: number, out: number, input: number): number;
}

/**
 * The smallest module using a SIMD instruction (wasm-feature-detect's probe, as the package's own loader uses):
 * WebAssembly.validate accepts it only where WebAssembly SIMD is available.
 */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export type RnnoiseBuild = 'simd' | 'scalar';

/** Which build runs here: SIMD unless the host lacks it or KORA_ENGINE_NO_SIMD=1 (as for the true-peak kernel). */
export function rnnoiseBuild(): RnnoiseBuild {
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (process.env.KORA_ENGINE_NO_SIMD === '1' || !wasm?.validate(SIMD_PROBE)) return 'scalar';
  return 'simd';
}

/** Runtime functions the Emscripten build imports; `memory` is read once the instance exists. */
function emscriptenImports(memory: () => WasmMemory): object {
  // RNNoise calls memcpy nine times per frame: one byte view, renewed only when memory grows.
  let heap = new Uint8Array(0);
  return {
    env: {
      emscripten_memcpy_big(dest: number, src: number, bytes: number): number {
        const buffer = memory().buffer;
        if (heap.buffer !== buffer) heap = new Uint8Array(buffer);
        heap.copyWithin(dest, src, src + bytes);
        return dest;
      },
      emscripten_resize_heap(requested: number): number {
        const mem = memory();
        const missing = (requested >>> 0) - mem.buffer.byteLength;
        try {
          if (missing > 0) mem.grow(Math.ceil(missing / WASM_PAGE));
          return 1;
        } catch {
          return 0;
        }
      },
      __assert_fail(): never {
        throw new InternalEngineError('RNNoise: assertion failed in the WebAssembly module');
      },
    },
  };
}

async function instantiate(build: RnnoiseBuild): Promise<RnnoiseModule> {
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) throw new Error('no WebAssembly in this runtime');
  const file = build === 'simd' ? 'rnnoise_simd.wasm' : 'rnnoise.wasm';
  const bytes = await readFile(createRequire(__filename).resolve(`@shiguredo/rnnoise-wasm/dist/${file}`));
  let mod: RnnoiseModule | null = null;
  const { instance } = await wasm.instantiate(
    bytes,
    emscriptenImports(() => mod!.memory),
  );
  mod = instance.exports as unknown as RnnoiseModule;
  // Emscripten's start-up order: the stack first (the constructors use it), then the static constructors.
  mod.emscripten_stack_init();
  mod.__wasm_call_ctors();
  return mod;
}

const loading = new Map<RnnoiseBuild, Promise<RnnoiseModule>>();

/** The build's module, instantiated once per thread. */
export function loadRnnoise(build: RnnoiseBuild = rnnoiseBuild()): Promise<RnnoiseModule> {
  let module = loading.get(build);
  if (!module) {
    module = instantiate(build).catch((error: unknown) => {
      loading.delete(build);
      throw new InternalEngineError(`RNNoise could not be loaded: ${String(error)}`);
    });
    loading.set(build, module);
  }
  return module;
}

export interface RnnoiseResult {
  output: Float32Array;
  /** Voice probability per 10 ms frame, aligned with the output. */
  vad: Float32Array;
}

export interface RnnoiseOptions {
  /** Blend of the denoised signal with the (aligned) original, 0..1 (default 1: fully denoised). */
  mix?: number;
  /** The build to run (default: rnnoiseBuild()). */
  build?: RnnoiseBuild;
}

/**
 * Denoises one 48 kHz channel.
 *
 * The signal goes through WebAssembly memory a block of frames at a time, each frame denoised in place, so the
 * JavaScript side costs one scaled copy in and one out per block rather than a view and two copies per frame.
 */
export async function rnnoiseChannel(
  x: Float32Array,
  tick?: Tick,
  options: RnnoiseOptions = {},
): Promise<RnnoiseResult> {
  const mod = await loadRnnoise(options.build);
  const mix = options.mix ?? 1;
  const n = x.length;
  // One frame more than the signal holds flushes the delayed last samples out.
  const frames = Math.ceil((n + RNNOISE_DELAY) / RNNOISE_FRAME);
  const output = new Float32Array(n);
  const vad = new Float32Array(Math.ceil(n / RNNOISE_FRAME));
  const state = mod.rnnoise_create(0);
  const ptr = mod.malloc(BLOCK_FRAMES * RNNOISE_FRAME * 4);
  try {
    for (let first = 0; first < frames; first += BLOCK_FRAMES) {
      const count = Math.min(BLOCK_FRAMES, frames - first);
      const start = first * RNNOISE_FRAME;
      const length = count * RNNOISE_FRAME;
      blockIn(new Float32Array(mod.memory.buffer, ptr, length), x, start);
      for (let f = 0; f < count; f++) {
        const frame = ptr + f * RNNOISE_FRAME * 4;
        const p = mod.rnnoise_process_frame(state, frame, frame);
        if (first + f < vad.length) vad[first + f] = p; // the probability describes input frame first + f
      }
      // A fresh view: the module's memory may have grown (and its buffer been replaced) while processing.
      blockOut(new Float32Array(mod.memory.buffer, ptr, length), x, output, start - RNNOISE_DELAY, mix);
      if (tick) await tick((first + count) / frames);
    }
  } finally {
    mod.free(ptr);
    mod.rnnoise_destroy(state);
  }
  return { output, vad };
}

/** Input samples [start, start + block length) on the int16 scale, zeros past the end of the signal. */
function blockIn(block: Float32Array, x: Float32Array, start: number): void {
  const available = Math.max(0, Math.min(block.length, x.length - start));
  for (let i = 0; i < available; i++) block[i] = x[start + i]! * INT16_SCALE;
  block.fill(0, available);
}

/** Denoised samples back into `output` from `at` (the block's start minus the delay), mixed with the original. */
function blockOut(block: Float32Array, x: Float32Array, output: Float32Array, at: number, mix: number): void {
  const from = Math.max(0, -at);
  const to = Math.min(block.length, output.length - at);
  const wet = mix / INT16_SCALE;
  if (mix === 1) {
    for (let i = from; i < to; i++) output[at + i] = block[i]! * wet;
    return;
  }
  for (let i = from; i < to; i++) output[at + i] = block[i]! * wet + x[at + i]! * (1 - mix);
}
