/**
 * Neural noise suppression with RNNoise (J.-M. Valin, "A Hybrid DSP/Deep Learning Approach to Real-Time Full-Band
 * Speech Enhancement", MMSP 2018), run as WebAssembly (@echogarden/rnnoise-wasm, an ESM package loaded with a
 * dynamic import). RNNoise works on 48 kHz audio in 10 ms frames (480 samples) scaled to the int16 range and returns
 * a voice-activity probability per frame. Its output lags the input by one frame (480 samples, measured in the
 * tests), which is compensated here so the result stays sample-aligned with the input.
 */
import type { RnnoiseModule } from '@echogarden/rnnoise-wasm';
import { InternalEngineError } from '../errors';
import type { Tick } from '../job/context';

export const RNNOISE_RATE = 48000;
export const RNNOISE_FRAME = 480;
/** Output delay of rnnoise_process_frame, samples. */
export const RNNOISE_DELAY = 480;

let loading: Promise<RnnoiseModule> | null = null;

export function loadRnnoise(): Promise<RnnoiseModule> {
  loading ??= import('@echogarden/rnnoise-wasm')
    .then((m) => m.default())
    .catch((error: unknown) => {
      loading = null;
      throw new InternalEngineError(`RNNoise could not be loaded: ${String(error)}`);
    });
  return loading;
}

export interface RnnoiseResult {
  output: Float32Array;
  /** Voice probability per 10 ms frame, aligned with the output. */
  vad: Float32Array;
}

/**
 * Denoises one 48 kHz channel. `mix` (0..1) blends the denoised signal with the (aligned) original: 1 = fully
 * denoised.
 */
export async function rnnoiseChannel(x: Float32Array, tick?: Tick, mix = 1): Promise<RnnoiseResult> {
  const mod = await loadRnnoise();
  const n = x.length;
  const frames = Math.ceil((n + RNNOISE_DELAY) / RNNOISE_FRAME);
  const output = new Float32Array(n);
  const vad = new Float32Array(Math.ceil(n / RNNOISE_FRAME));
  const state = mod._rnnoise_create(0);
  const ptr = mod._malloc(RNNOISE_FRAME * 4);
  try {
    for (let f = 0; f < frames; f++) {
      const base = f * RNNOISE_FRAME;
      let heap = mod.HEAPF32;
      const o = ptr >> 2;
      for (let i = 0; i < RNNOISE_FRAME; i++) {
        const k = base + i;
        heap[o + i] = k < n ? x[k]! * 32768 : 0;
      }
      const p = mod._rnnoise_process_frame(state, ptr, ptr);
      heap = mod.HEAPF32; // the heap may have been replaced if memory grew
      // Output frame f holds input samples [base - delay, base - delay + frame).
      const start = base - RNNOISE_DELAY;
      for (let i = 0; i < RNNOISE_FRAME; i++) {
        const k = start + i;
        if (k >= 0 && k < n) output[k] = (heap[o + i]! / 32768) * mix + x[k]! * (1 - mix);
      }
      if (f < vad.length) vad[f] = p; // the probability describes input frame f
      if (tick && (f & 255) === 255) await tick(f / frames);
    }
  } finally {
    mod._free(ptr);
    mod._rnnoise_destroy(state);
  }
  return { output, vad };
}
