/**
 * A small assembler for the engine's WebAssembly SIMD kernels (`simd.ts`, `biquad-simd.ts`): each is one exported
 * function over one exported memory, written as byte code at load time (no build step, no binary file in the
 * repository). Encodings and opcodes: WebAssembly core spec 2.0, sections 5.2 (LEB128), 5.4 (instructions; SIMD
 * prefix 0xFD) and 5.5 (modules).
 */

/** Value types. */
export const I32 = 0x7f;
export const V128 = 0x7b;

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** Signed LEB128 (i32 constants). */
export function sleb(n: number): number[] {
  const out: number[] = [];
  let v = n | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const str = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'utf8')];

// Instructions.
export const get = (i: number) => [0x20, ...uleb(i)];
export const set = (i: number) => [0x21, ...uleb(i)];
export const i32c = (v: number) => [0x41, ...sleb(v)];
export const I32_ADD = [0x6a];
export const I32_MUL = [0x6c];
export const I32_SHL = [0x74];
export const I32_GE_U = [0x4f];
export const BR_IF = (depth: number) => [0x0d, ...uleb(depth)];
export const BR = (depth: number) => [0x0c, ...uleb(depth)];
export const BLOCK = [0x02, 0x40];
export const LOOP = [0x03, 0x40];
export const END = [0x0b];
export const simd = (op: number) => [0xfd, ...uleb(op)];
/** v128.load / v128.store at a byte offset from the address on the stack (alignment hint 0). */
export const V128_LOAD = (offset: number) => [...simd(0), 0, ...uleb(offset)];
export const V128_STORE = (offset: number) => [...simd(11), 0, ...uleb(offset)];

export interface KernelSpec {
  /** The exported function's name. */
  name: string;
  /** Its parameters (all i32: addresses and counts), how many. */
  params: number;
  /** Its locals after the parameters, as runs of [count, type]. */
  locals: Array<[number, number]>;
  /** Its body, without the final `end`. */
  body: number[];
  /** The memory's initial size, 64 KiB pages (exported as `memory`). */
  memoryPages: number;
}

/** The bytes of a module with one exported function of i32 parameters and no result, and its memory. */
export function kernelModule({ name, params, locals, body, memoryPages }: KernelSpec): Uint8Array {
  const code = [...vec(locals.map(([count, type]) => [...uleb(count), type])), ...body, ...END];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec(new Array<number[]>(params).fill([I32])), 0]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, ...uleb(memoryPages)]])),
    ...section(
      7,
      vec([
        [...str(name), 0x00, 0],
        [...str('memory'), 0x02, 0],
      ]),
    ),
    ...section(10, vec([[...uleb(code.length), ...code]])),
  ]);
}

/** The slice of the WebAssembly JS API the kernels use (the project's lib settings carry no WebAssembly typings). */
export interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
/** The host's WebAssembly, if it has one. */
export const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
