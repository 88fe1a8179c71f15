/**
 * A WebAssembly SIMD kernel for a biquad cascade over a stereo pair, assembled at load time from the byte code below
 * (no build step, no binary file in the repository; 642 bytes).
 *
 *   cascade4(buf, frames, coef, state)
 *     buf holds `frames` stereo frames as float64 pairs (left, right: one v128 per frame); four sections in
 *     transposed direct form II run over it in place, both channels at once in the two f64x2 lanes, with the same
 *     operations in the same order as `runFour` in biquad.ts (multiplies and adds are not fused), so the results are
 *     the same to the bit. coef holds per section b0, b1, b2, a1, a2, each splatted to both lanes (80 bytes a
 *     section), state s1, s2 per section (32 bytes a section). Each output is rounded to float32
 *     (f32x4.demote_f64x2_zero, f64x2.promote_low_f32x4), as the JavaScript path stores it in a Float32Array after
 *     every group of four sections.
 *
 * Why: a cascade is bound by the latency of each section's recursion; with the two channels in one instruction the
 * reference match's 30-section filter bank runs in about half the time of the JavaScript loop (docs/engine.md).
 * Opcodes: WebAssembly core spec 2.0, section 5.4 (prefix 0xFD: v128.load 0, v128.store 11,
 * f32x4.demote_f64x2_zero 94, f64x2.promote_low_f32x4 95, f64x2.add 240, f64x2.sub 241, f64x2.mul 242).
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
  I32_SHL,
  i32c,
  kernelModule,
  LOOP,
  set,
  simd,
  V128,
  V128_LOAD as LOAD,
  V128_STORE as STORE,
  type WasmMemory,
  wasm,
} from './wasm-asm';

/** A normalised second-order section (a0 = 1), as `Biquad` in biquad.ts (which imports this file). */
interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

const ADD = simd(240);
const SUB = simd(241);
const MUL = simd(242);
const DEMOTE = simd(94);
const PROMOTE = simd(95);

// Parameters: 0 buf, 1 frames, 2 coef, 3 state. Locals: 4 end (i32); 5..24 coefficients, 25..32 states, 33..37
// the signal between sections (v128).
const [BUF, FRAMES, COEF, STATE, END_PTR] = [0, 1, 2, 3, 4];
const C = (k: number, j: number) => 5 + 5 * k + j; // section k, j: b0 b1 b2 a1 a2
const S = (k: number, j: number) => 25 + 2 * k + j; // section k, j: s1 s2
const SIG = (k: number) => 33 + k; // input of section k (k = 4: the output)

/** One section: y = b0 x + s1; s1 = b1 x - a1 y + s2; s2 = b2 x - a2 y (as biquadRun / runFour compute it). */
function sectionCode(k: number): number[] {
  const x = SIG(k);
  const y = SIG(k + 1);
  return [
    ...get(C(k, 0)),
    ...get(x),
    ...MUL,
    ...get(S(k, 0)),
    ...ADD,
    ...set(y),
    ...get(C(k, 1)),
    ...get(x),
    ...MUL,
    ...get(C(k, 3)),
    ...get(y),
    ...MUL,
    ...SUB,
    ...get(S(k, 1)),
    ...ADD,
    ...set(S(k, 0)),
    ...get(C(k, 2)),
    ...get(x),
    ...MUL,
    ...get(C(k, 4)),
    ...get(y),
    ...MUL,
    ...SUB,
    ...set(S(k, 1)),
  ];
}

function moduleBytes(): Uint8Array {
  const body: number[] = [];
  for (let k = 0; k < 4; k++)
    for (let j = 0; j < 5; j++) body.push(...get(COEF), ...LOAD(80 * k + 16 * j), ...set(C(k, j)));
  for (let k = 0; k < 4; k++)
    for (let j = 0; j < 2; j++) body.push(...get(STATE), ...LOAD(32 * k + 16 * j), ...set(S(k, j)));
  body.push(...get(BUF), ...get(FRAMES), ...i32c(4), ...I32_SHL, ...I32_ADD, ...set(END_PTR));
  body.push(...BLOCK, ...LOOP, ...get(BUF), ...get(END_PTR), ...I32_GE_U, ...BR_IF(1));
  body.push(...get(BUF), ...LOAD(0), ...set(SIG(0)));
  for (let k = 0; k < 4; k++) body.push(...sectionCode(k));
  body.push(...get(BUF), ...get(SIG(4)), ...DEMOTE, ...PROMOTE, ...STORE(0));
  body.push(...get(BUF), ...i32c(16), ...I32_ADD, ...set(BUF), ...BR(0), ...END, ...END);
  for (let k = 0; k < 4; k++)
    for (let j = 0; j < 2; j++) body.push(...get(STATE), ...get(S(k, j)), ...STORE(32 * k + 16 * j));
  return kernelModule({
    name: 'cascade4',
    params: 4,
    locals: [
      [1, I32],
      [33, V128],
    ],
    body,
    memoryPages: 2,
  });
}

/** Frames per call of the kernel (64 KiB of float64 pairs: stays in the first-level caches with the states). */
const BLOCK_FRAMES = 4096;

export interface StereoCascade {
  /**
   * Filters frames [start, end) of (inL, inR) into (outL, outR) at outStart.. (the outputs may be the inputs); states
   * continue across calls and are flushed to zero below 1e-30 at the end of each call, as BiquadChain does.
   */
  run(
    inL: Float32Array,
    inR: Float32Array,
    outL: Float32Array,
    outR: Float32Array,
    start: number,
    end: number,
    outStart?: number,
  ): void;
}

export interface StereoCascadeOptions {
  /**
   * Round to float32 after every section (as consecutive biquadRun passes through a Float32Array do) rather than
   * after every group of four (as BiquadChain does).
   */
  roundEachSection?: boolean;
}

let compiled: object | null | undefined;

/** A stereo cascade of `sections` on the SIMD kernel, or null without WebAssembly SIMD (or with KORA_ENGINE_NO_SIMD). */
export function stereoCascade(sections: readonly Biquad[], options: StereoCascadeOptions = {}): StereoCascade | null {
  if (process.env.KORA_ENGINE_NO_SIMD === '1' || !wasm || sections.length === 0) return null;
  if (compiled === undefined) {
    const bytes = moduleBytes();
    compiled = wasm.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  if (compiled === null) return null;
  const instance = new wasm.Instance(compiled, {});
  const memory = instance.exports.memory as WasmMemory;
  const cascade4 = instance.exports.cascade4 as (buf: number, frames: number, coef: number, state: number) => void;
  // Groups of four sections (missing ones are identities, b0 = 1: exact, as runFour's padding), or one per group.
  const identity: Biquad = { b0: 1, b1: 0, b2: 0, a1: 0, a2: 0 };
  const grouped: Biquad[][] = [];
  const per = options.roundEachSection ? 1 : 4;
  for (let k = 0; k < sections.length; k += per) {
    const g = sections.slice(k, k + per);
    while (g.length < 4) g.push(identity);
    grouped.push(g);
  }
  const groups = grouped.length;
  const coefPtr = 0;
  const statePtr = coefPtr + 320 * groups;
  const bufPtr = statePtr + 128 * groups;
  const needed = bufPtr + 16 * BLOCK_FRAMES;
  if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536));
  const heap = new Float64Array(memory.buffer);
  grouped.flat().forEach((s, k) => {
    const at = coefPtr / 8 + 10 * k;
    [s.b0, s.b1, s.b2, s.a1, s.a2].forEach((c, j) => {
      heap[at + 2 * j] = c;
      heap[at + 2 * j + 1] = c;
    });
  });
  const states = heap.subarray(statePtr / 8, statePtr / 8 + 16 * groups);
  const buf = heap.subarray(bufPtr / 8, bufPtr / 8 + 2 * BLOCK_FRAMES);
  return {
    run(inL, inR, outL, outR, start, end, outStart = start) {
      for (let s = start; s < end; s += BLOCK_FRAMES) {
        const frames = Math.min(end, s + BLOCK_FRAMES) - s;
        load(inL, inR, buf, s, frames);
        for (let g = 0; g < groups; g++) cascade4(bufPtr, frames, coefPtr + 320 * g, statePtr + 128 * g);
        store(buf, outL, outR, outStart + (s - start), frames);
      }
      for (let i = 0; i < states.length; i++) if (Math.abs(states[i]!) < 1e-30) states[i] = 0;
    },
  };
}

function load(left: Float32Array, right: Float32Array, buf: Float64Array, start: number, frames: number): void {
  for (let i = 0; i < frames; i++) {
    buf[2 * i] = left[start + i]!;
    buf[2 * i + 1] = right[start + i]!;
  }
}

function store(buf: Float64Array, left: Float32Array, right: Float32Array, start: number, frames: number): void {
  for (let i = 0; i < frames; i++) {
    left[start + i] = buf[2 * i]!;
    right[start + i] = buf[2 * i + 1]!;
  }
}
