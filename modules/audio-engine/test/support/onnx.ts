/**
 * A tiny ONNX writer for tests: enough of the protobuf encoding (onnx.proto3) to build one-node graphs with float
 * initialisers, so the neural separation path can be tested end to end without shipping or downloading a model.
 */

function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}

const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, value: number) => [...key(field, 0), ...varint(value)];
const bytes = (field: number, data: number[] | Uint8Array) => [...key(field, 2), ...varint(data.length), ...data];
const str = (field: number, s: string) => bytes(field, [...Buffer.from(s, 'utf8')]);

function dimension(d: number | string): number[] {
  return typeof d === 'number' ? int(1, d) : str(2, d);
}

function valueInfo(name: string, dims: Array<number | string>): number[] {
  const shape = dims.flatMap((d) => bytes(1, dimension(d)));
  const tensorType = [...int(1, 1), ...bytes(2, shape)]; // elem_type FLOAT, shape
  const type = bytes(1, tensorType);
  return [...str(1, name), ...bytes(2, type)];
}

export interface Initializer {
  name: string;
  dims: number[];
  /** float32 data, or int64 data when `int64` is set. */
  data: number[];
  int64?: boolean;
}

function tensor(t: Initializer): number[] {
  const out: number[] = [];
  for (const d of t.dims) out.push(...int(1, d));
  out.push(...int(2, t.int64 ? 7 : 1));
  out.push(...str(8, t.name));
  if (t.int64) {
    const buf = Buffer.alloc(8 * t.data.length);
    t.data.forEach((v, i) => buf.writeBigInt64LE(BigInt(v), 8 * i));
    out.push(...bytes(9, [...buf]));
  } else {
    const buf = Buffer.alloc(4 * t.data.length);
    t.data.forEach((v, i) => buf.writeFloatLE(v, 4 * i));
    out.push(...bytes(9, [...buf]));
  }
  return out;
}

export interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  /** Integer attributes. */
  ints?: Record<string, number>;
}

function node(n: NodeSpec, index: number): number[] {
  const out: number[] = [];
  for (const i of n.inputs) out.push(...str(1, i));
  for (const o of n.outputs) out.push(...str(2, o));
  out.push(...str(3, `node${index}`), ...str(4, n.op));
  for (const [name, value] of Object.entries(n.ints ?? {})) {
    out.push(...bytes(5, [...str(1, name), ...int(3, value), ...int(20, 2)]));
  }
  return out;
}

/** A model with one input and one output of the given shape, computed by `nodes` from `input` to `output`. */
export function onnxModel(
  nodes: NodeSpec[],
  initializers: Initializer[],
  inputDims: Array<number | string>,
  outputDims: Array<number | string>,
): Buffer {
  const graph = [
    ...nodes.flatMap((n, i) => bytes(1, node(n, i))),
    ...str(2, 'test-graph'),
    ...initializers.flatMap((t) => bytes(5, tensor(t))),
    ...bytes(11, valueInfo('input', inputDims)),
    ...bytes(12, valueInfo('output', outputDims)),
  ];
  const model = [
    ...int(1, 8), // ir_version
    ...str(2, 'kora-tests'),
    ...bytes(7, graph),
    ...bytes(8, [...str(1, ''), ...int(2, 17)]), // opset 17
  ];
  return Buffer.from(model);
}
