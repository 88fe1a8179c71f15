/**
 * A WebAssembly SIMD kernel for the true-peak interpolator, assembled at load time from the byte code below (no
 * build step, no binary file in the repository; about 200 bytes).
 *
 *   interp(x, out, groups, coef, taps)
 *     for each group g of 4 consecutive output samples n = 4g .. 4g+3:
 *       acc_p = sum_j  x[n + j] * C_p[j]      for the three phases p (f32x4: four samples per instruction)
 *     stores acc_1, acc_2, acc_3 at out + 48 g (12 floats per group: 4 samples of phase 1, then 2, then 3)
 *   x is the input padded so that x[n + j] is the sample tap j of output n needs; coef holds, per tap j, three
 *   v128 with C_1[j], C_2[j], C_3[j] splatted to all lanes (48 bytes per tap).
 *
 * Accumulation is in float32 (relative error ~1e-7 x sqrt(taps), far below what a peak meter resolves). When the
 * host has no WebAssembly SIMD the engine falls back to the JavaScript loop (same results within 1e-6).
 * Opcodes: WebAssembly core spec 2.0, section 5.4 (SIMD prefix 0xFD: v128.load 0, v128.store 11, v128.const 12,
 * f32x4.add 228, f32x4.mul 230).
 */

import {
  BLOCK,
  BR,
  BR_IF,
  END,
  get,
  I32,
  I32_ADD,
  I32_GE_U,
  I32_MUL,
  I32_SHL,
  i32c,
  kernelModule,
  LOOP,
  set,
  simd,
  V128,
  V128_LOAD,
  V128_STORE,
  type WasmMemory,
  wasm,
} from './wasm-asm';

const V128_ZERO = [...simd(12), ...new Array<number>(16).fill(0)];
const F32X4_ADD = simd(228);
const F32X4_MUL = simd(230);

// Parameters 0..4: x, out, groups, coef, taps. Locals: 5 g, 6 j, 7 xp, 8 cp (i32); 9..11 acc, 12 xv (v128).
const [X, OUT, GROUPS, COEF, TAPS, G, J, XP, CP, A0, A1, A2, XV] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

function accumulate(acc: number, offset: number): number[] {
  return [...get(acc), ...get(XV), ...get(CP), ...V128_LOAD(offset), ...F32X4_MUL, ...F32X4_ADD, ...set(acc)];
}

const body: number[] = [
  ...BLOCK,
  ...LOOP,
  ...get(G),
  ...get(GROUPS),
  ...I32_GE_U,
  ...BR_IF(1),
  ...V128_ZERO,
  ...set(A0),
  ...V128_ZERO,
  ...set(A1),
  ...V128_ZERO,
  ...set(A2),
  ...get(X),
  ...get(G),
  ...i32c(4),
  ...I32_SHL,
  ...I32_ADD,
  ...set(XP),
  ...get(COEF),
  ...set(CP),
  ...i32c(0),
  ...set(J),
  ...BLOCK,
  ...LOOP,
  ...get(J),
  ...get(TAPS),
  ...I32_GE_U,
  ...BR_IF(1),
  ...get(XP),
  ...V128_LOAD(0),
  ...set(XV),
  ...accumulate(A0, 0),
  ...accumulate(A1, 16),
  ...accumulate(A2, 32),
  ...get(XP),
  ...i32c(4),
  ...I32_ADD,
  ...set(XP),
  ...get(CP),
  ...i32c(48),
  ...I32_ADD,
  ...set(CP),
  ...get(J),
  ...i32c(1),
  ...I32_ADD,
  ...set(J),
  ...BR(0),
  ...END,
  ...END,
  ...get(OUT),
  ...get(G),
  ...i32c(48),
  ...I32_MUL,
  ...I32_ADD,
  ...set(XP),
  ...get(XP),
  ...get(A0),
  ...V128_STORE(0),
  ...get(XP),
  ...get(A1),
  ...V128_STORE(16),
  ...get(XP),
  ...get(A2),
  ...V128_STORE(32),
  ...get(G),
  ...i32c(1),
  ...I32_ADD,
  ...set(G),
  ...BR(0),
  ...END,
  ...END,
];

const moduleBytes = (): Uint8Array =>
  kernelModule({
    name: 'interp',
    params: 5,
    locals: [
      [4, I32],
      [4, V128],
    ],
    body,
    memoryPages: 64,
  });

export interface SimdInterpolator {
  /**
   * Interpolated phases 1..3 for `count` outputs whose taps are xPadded[n + j] (j < taps); result[3 n + p - 1].
   * `coefs` are the phases' taps as in TruePeakDetector (phase-major).
   */
  run(xPadded: Float32Array, count: number, out: Float64Array): void;
}

let supported: boolean | null = null;

/** A SIMD interpolator for the given phase-major coefficients (3 x taps), or null without WebAssembly SIMD. */
export function simdInterpolator(coefs: Float64Array, taps: number): SimdInterpolator | null {
  if (process.env.KORA_ENGINE_NO_SIMD === '1') return null;
  const bytes = moduleBytes();
  supported ??= wasm !== undefined && wasm.validate(bytes);
  if (!supported || !wasm) return null;
  const instance = new wasm.Instance(new wasm.Module(bytes), {});
  const memory = instance.exports.memory as WasmMemory;
  const interp = instance.exports.interp as (
    x: number,
    out: number,
    groups: number,
    coef: number,
    taps: number,
  ) => void;
  const coefBytes = 48 * taps;
  const coefView = new Float32Array(memory.buffer, 0, coefBytes / 4);
  for (let j = 0; j < taps; j++) {
    for (let p = 0; p < 3; p++) {
      const c = coefs[p * taps + j]!;
      for (let lane = 0; lane < 4; lane++) coefView[12 * j + 4 * p + lane] = c;
    }
  }
  return {
    run(xPadded, count, out) {
      const groups = Math.ceil(count / 4);
      const xFloats = 4 * groups + taps + 4;
      const xPtr = coefBytes;
      const outPtr = xPtr + 4 * xFloats;
      const needed = outPtr + 48 * groups;
      if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536));
      const heap = new Float32Array(memory.buffer);
      heap.set(xPadded.subarray(0, Math.min(xPadded.length, xFloats)), xPtr / 4);
      if (xPadded.length < xFloats) heap.fill(0, xPtr / 4 + xPadded.length, xPtr / 4 + xFloats);
      interp(xPtr, outPtr, groups, 0, taps);
      const o = outPtr / 4;
      for (let g = 0; g < groups; g++) {
        const base = o + 12 * g;
        for (let lane = 0; lane < 4; lane++) {
          const n = 4 * g + lane;
          if (n >= count) break;
          out[3 * n] = heap[base + lane]!;
          out[3 * n + 1] = heap[base + 4 + lane]!;
          out[3 * n + 2] = heap[base + 8 + lane]!;
        }
      }
    },
  };
}
