/**
 * A FLAC encoder in plain TypeScript (format: https://xiph.org/flac/format.html, RFC 9639), small enough to ship
 * in a Web Worker: fixed blocks of 4096 samples; per block the cheaper stereo decorrelation (left/right, left/side,
 * side/right or mid/side) chosen from an order-2 estimate, as ffmpeg's encoder does; per subframe a constant, the
 * best fixed predictor (orders 0 to 4) or a linear predictor (Levinson-Durbin on a Tukey-windowed autocorrelation,
 * order chosen from the expected residual bits, coefficients quantised with error feedback as libFLAC does),
 * whichever codes shorter, else verbatim; wasted low bits removed; residuals Rice-coded in up to 2^6 partitions,
 * each with its own parameter. The STREAMINFO carries the MD5 of the samples, as `flac -t` checks it.
 *
 * Samples come in planar Int32Arrays; the stream header, which depends on every sample (MD5, sizes), comes last from
 * `finish()` and goes in front of the frames.
 */
import { BitWriter, crc16, crc8 } from './bitWriter';
import { Md5 } from './md5';

export interface FlacStreamInfo {
  sampleRate: number;
  channels: number;
  /** 4 to 24 (32-bit FLAC is newer than the decoders it must reach: ffmpeg 5 reads up to 24). */
  bitsPerSample: number;
}

export interface FlacEncoderOptions {
  /** Samples per block (default 4096, libFLAC's from -3 on). */
  blockSize?: number;
  /** Highest LPC order tried (default 8, libFLAC -5's; 0 for fixed predictors only). */
  maxLpcOrder?: number;
  /** Highest Rice partition order (default 6). */
  maxPartitionOrder?: number;
  /** Stereo coding: chosen per block (default), or one forced for every block (tests). */
  stereo?: 'auto' | StereoMode;
}

/** The stereo codings FLAC offers, by the name of the two channels coded. */
export type StereoMode = 'left-right' | 'left-side' | 'side-right' | 'mid-side';

const MAX_FIXED_ORDER = 4;
const SAMPLE_RATE_CODES: Record<number, number> = {
  88200: 1,
  176400: 2,
  192000: 3,
  8000: 4,
  16000: 5,
  22050: 6,
  24000: 7,
  32000: 8,
  44100: 9,
  48000: 10,
  96000: 11,
};
const SAMPLE_SIZE_CODES: Record<number, number> = { 8: 1, 12: 2, 16: 4, 20: 5, 24: 6 };
const POW2 = Array.from({ length: 64 }, (_, i) => 2 ** i);

/** Channel assignments of a stereo frame (the 4-bit code in the frame header). */
const enum Stereo {
  Independent = 1,
  LeftSide = 8,
  SideRight = 9,
  MidSide = 10,
}
const STEREO_MODES: Record<StereoMode, Stereo> = {
  'left-right': Stereo.Independent,
  'left-side': Stereo.LeftSide,
  'side-right': Stereo.SideRight,
  'mid-side': Stereo.MidSide,
};

/** How a subframe is coded, found by `analyse` and written by `writeSubframe`. */
interface SubframePlan {
  kind: 'constant' | 'verbatim' | 'fixed' | 'lpc';
  bits: number;
  order: number;
  wasted: number;
  /** LPC only. */
  coefficients: Int32Array;
  precision: number;
  shift: number;
  /** Rice partition order and parameters (one per partition). */
  partitionOrder: number;
  parameters: Int32Array;
  /** Estimated size in bits. */
  cost: number;
}

export class FlacEncoder {
  readonly blockSize: number;
  private readonly maxLpcOrder: number;
  private readonly maxPartitionOrder: number;
  private readonly stereo: Stereo | null;
  private readonly info: FlacStreamInfo;
  /** The block being filled, one array per channel, and the mid and side made from it. */
  private readonly block: Int32Array[];
  private filled = 0;
  private readonly mid: Int32Array;
  private readonly side: Int32Array;
  private readonly work: Int32Array;
  private readonly residual: Int32Array;
  private readonly folded: Uint32Array;
  private readonly bestFolded: Uint32Array;
  private readonly windowed: Float64Array;
  private readonly window: Float64Array;
  private readonly partitionSums: Float64Array;
  private readonly writer = new BitWriter(1 << 16);
  private readonly md5 = new Md5();
  private md5Bytes: Uint8Array;
  private frameNumber = 0;
  private totalSamples = 0;
  private minFrameBytes = Infinity;
  private maxFrameBytes = 0;
  /** Encoded frames not yet handed out by `write`. */
  private output: Uint8Array;
  private outputLength = 0;
  private finished = false;

  constructor(info: FlacStreamInfo, options: FlacEncoderOptions = {}) {
    if (!Number.isInteger(info.channels) || info.channels < 1 || info.channels > 8) {
      throw new RangeError(`FLAC holds 1 to 8 channels, not ${info.channels}`);
    }
    if (!Number.isInteger(info.bitsPerSample) || info.bitsPerSample < 4 || info.bitsPerSample > 24) {
      throw new RangeError(`this encoder writes 4 to 24 bits per sample, not ${info.bitsPerSample}`);
    }
    if (!Number.isInteger(info.sampleRate) || info.sampleRate < 1 || info.sampleRate >= 2 ** 20) {
      throw new RangeError(`invalid sample rate ${info.sampleRate}`);
    }
    this.info = info;
    this.blockSize = options.blockSize ?? 4096;
    if (this.blockSize < 16 || this.blockSize > 65535) throw new RangeError('block size out of range');
    this.maxLpcOrder = Math.min(32, Math.max(0, options.maxLpcOrder ?? 8));
    this.maxPartitionOrder = Math.min(8, Math.max(0, options.maxPartitionOrder ?? 6));
    this.stereo = !options.stereo || options.stereo === 'auto' ? null : STEREO_MODES[options.stereo];
    const n = this.blockSize;
    this.block = Array.from({ length: info.channels }, () => new Int32Array(n));
    this.mid = new Int32Array(n);
    this.side = new Int32Array(n);
    this.work = new Int32Array(n);
    this.residual = new Int32Array(n);
    this.folded = new Uint32Array(n);
    this.bestFolded = new Uint32Array(n);
    this.windowed = new Float64Array(n);
    this.window = tukey(n, 0.5);
    this.partitionSums = new Float64Array(1 << this.maxPartitionOrder);
    this.md5Bytes = new Uint8Array(n * info.channels * Math.ceil(info.bitsPerSample / 8));
    this.output = new Uint8Array(1 << 20);
  }

  /**
   * Takes `frames` samples of every channel (planar, signed, within the declared bit depth) and returns the frames
   * completed so far as bytes (possibly empty). The arrays are read, not kept.
   */
  write(channels: readonly Int32Array[], frames: number): Uint8Array {
    if (this.finished) throw new Error('the encoder has finished');
    if (channels.length !== this.info.channels) throw new RangeError('channel count differs from the stream');
    let offset = 0;
    while (offset < frames) {
      const take = Math.min(this.blockSize - this.filled, frames - offset);
      for (let c = 0; c < channels.length; c++) {
        this.block[c]!.set(channels[c]!.subarray(offset, offset + take), this.filled);
      }
      this.filled += take;
      offset += take;
      if (this.filled === this.blockSize) this.encodeBlock(this.blockSize);
    }
    return this.takeOutput();
  }

  /** Encodes what remains and returns it with the stream header (`fLaC` + STREAMINFO), which goes first. */
  finish(): { header: Uint8Array; tail: Uint8Array; totalSamples: number; md5: Uint8Array } {
    if (this.finished) throw new Error('the encoder has finished');
    if (this.filled > 0) this.encodeBlock(this.filled);
    this.finished = true;
    const tail = this.takeOutput();
    const md5 = this.md5.digest();
    return { header: this.streamHeader(md5), tail, totalSamples: this.totalSamples, md5 };
  }

  private takeOutput(): Uint8Array {
    const out = this.output.slice(0, this.outputLength);
    this.outputLength = 0;
    return out;
  }

  private streamHeader(md5: Uint8Array): Uint8Array {
    const w = new BitWriter(64);
    for (const c of 'fLaC') w.writeBits(c.charCodeAt(0), 8);
    w.writeBits(1, 1); // last metadata block
    w.writeBits(0, 7); // STREAMINFO
    w.writeBits(34, 24);
    const blockSize = this.frameNumber <= 1 ? Math.max(16, this.totalSamples) : this.blockSize;
    w.writeBits(Math.min(blockSize, this.blockSize), 16);
    w.writeBits(Math.min(blockSize, this.blockSize), 16);
    w.writeBits(Number.isFinite(this.minFrameBytes) ? this.minFrameBytes : 0, 24);
    w.writeBits(this.maxFrameBytes, 24);
    w.writeBits(this.info.sampleRate, 20);
    w.writeBits(this.info.channels - 1, 3);
    w.writeBits(this.info.bitsPerSample - 1, 5);
    w.writeBits(Math.floor(this.totalSamples / 2 ** 32) & 0xf, 4);
    w.writeBits(this.totalSamples >>> 0, 32);
    for (const byte of md5) w.writeBits(byte, 8);
    w.alignAndFlush();
    return w.bytes().slice();
  }

  private hashBlock(n: number): void {
    const channels = this.block;
    const count = channels.length;
    const width = Math.ceil(this.info.bitsPerSample / 8);
    const bytes = this.md5Bytes;
    let o = 0;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < count; c++) {
        const v = channels[c]![i]!;
        bytes[o++] = v & 0xff;
        if (width > 1) bytes[o++] = (v >> 8) & 0xff;
        if (width > 2) bytes[o++] = (v >> 16) & 0xff;
      }
    }
    this.md5.update(bytes.subarray(0, o));
  }

  private encodeBlock(n: number): void {
    this.hashBlock(n);
    const bps = this.info.bitsPerSample;
    const w = this.writer;
    w.reset();
    let assignment: number = this.info.channels - 1;
    let sources: { data: Int32Array; bps: number }[];
    if (this.info.channels === 2) {
      const left = this.block[0]!;
      const right = this.block[1]!;
      const mid = this.mid;
      const side = this.side;
      for (let i = 0; i < n; i++) {
        const l = left[i]!;
        const r = right[i]!;
        mid[i] = (l + r) >> 1;
        side[i] = l - r;
      }
      const mode = this.stereo ?? chooseStereo(left, right, mid, side, n);
      assignment = mode;
      sources =
        mode === Stereo.LeftSide
          ? [
              { data: left, bps },
              { data: side, bps: bps + 1 },
            ]
          : mode === Stereo.SideRight
            ? [
                { data: side, bps: bps + 1 },
                { data: right, bps },
              ]
            : mode === Stereo.MidSide
              ? [
                  { data: mid, bps },
                  { data: side, bps: bps + 1 },
                ]
              : [
                  { data: left, bps },
                  { data: right, bps },
                ];
      if (mode === Stereo.Independent) assignment = 1;
    } else {
      sources = this.block.map((data) => ({ data, bps }));
    }
    this.writeFrameHeader(n, assignment);
    for (const source of sources) this.encodeSubframe(source.data, n, source.bps);
    w.alignAndFlush();
    const bytes = w.bytes();
    const crc = crc16(bytes, 0, bytes.length);
    w.writeBits(crc, 16);
    w.alignAndFlush();
    const frame = w.bytes();
    this.append(frame);
    this.minFrameBytes = Math.min(this.minFrameBytes, frame.length);
    this.maxFrameBytes = Math.max(this.maxFrameBytes, frame.length);
    this.frameNumber++;
    this.totalSamples += n;
    this.filled = 0;
  }

  private append(bytes: Uint8Array): void {
    if (this.outputLength + bytes.length > this.output.length) {
      const grown = new Uint8Array(Math.max(this.output.length * 2, this.outputLength + bytes.length));
      grown.set(this.output.subarray(0, this.outputLength));
      this.output = grown;
    }
    this.output.set(bytes, this.outputLength);
    this.outputLength += bytes.length;
  }

  private writeFrameHeader(n: number, assignment: number): void {
    const w = this.writer;
    w.writeBits(0xfff8, 16); // sync code, reserved bit, fixed block size
    let sizeCode: number;
    if (n === 192) sizeCode = 1;
    else if (n === 576 || n === 1152 || n === 2304 || n === 4608) sizeCode = 2 + Math.log2(n / 576);
    else if (n >= 256 && n <= 32768 && (n & (n - 1)) === 0) sizeCode = 8 + Math.log2(n / 256);
    else sizeCode = n <= 256 ? 6 : 7;
    w.writeBits(sizeCode, 4);
    w.writeBits(SAMPLE_RATE_CODES[this.info.sampleRate] ?? 0, 4);
    w.writeBits(assignment, 4);
    w.writeBits(SAMPLE_SIZE_CODES[this.info.bitsPerSample] ?? 0, 3);
    w.writeBits(0, 1);
    writeUtf8Number(w, this.frameNumber);
    if (sizeCode === 6) w.writeBits(n - 1, 8);
    if (sizeCode === 7) w.writeBits(n - 1, 16);
    w.alignAndFlush();
    const header = w.bytes();
    w.writeBits(crc8(header, 0, header.length), 8);
  }

  private encodeSubframe(source: Int32Array, n: number, sourceBps: number): void {
    const w = this.writer;
    const first = source[0]!;
    let constant = true;
    let or = 0;
    for (let i = 0; i < n; i++) {
      const v = source[i]!;
      or |= v;
      if (v !== first) constant = false;
    }
    if (constant) {
      w.writeBits(0, 8); // zero bit, type 000000, no wasted bits
      w.writeSigned(first, sourceBps);
      return;
    }
    // Low bits that are zero in every sample (a 16-bit recording in a 24-bit file) are not coded.
    let wasted = 0;
    while (((or >> wasted) & 1) === 0 && wasted < sourceBps - 1) wasted++;
    let data = source;
    if (wasted > 0) {
      data = this.work;
      for (let i = 0; i < n; i++) data[i] = source[i]! >> wasted;
    }
    const bps = sourceBps - wasted;
    const plan = this.analyse(data, n, bps);
    plan.wasted = wasted;
    this.writeSubframe(plan, data, n, bps);
  }

  /** Chooses the cheapest coding of `data` (already without its wasted bits); leaves its residual in bestFolded. */
  private analyse(data: Int32Array, n: number, bps: number): SubframePlan {
    const verbatimBits = n * bps;
    let best: SubframePlan = {
      kind: 'verbatim',
      bits: bps,
      order: 0,
      wasted: 0,
      coefficients: new Int32Array(0),
      precision: 0,
      shift: 0,
      partitionOrder: 0,
      parameters: new Int32Array(0),
      cost: verbatimBits,
    };
    // Fixed predictors: the order whose residual has the smallest sum of magnitudes, as libFLAC chooses.
    const fixedOrder = bestFixedOrder(data, n);
    if (fixedOrder <= n - 1) {
      fixedResidual(data, n, fixedOrder, this.residual);
      const rice = this.riceCost(n, fixedOrder);
      if (rice && rice.cost + fixedOrder * bps < best.cost) {
        best = {
          ...best,
          kind: 'fixed',
          order: fixedOrder,
          partitionOrder: rice.partitionOrder,
          parameters: rice.parameters,
          cost: rice.cost + fixedOrder * bps,
        };
        this.bestFolded.set(this.folded.subarray(0, n));
      }
    }
    const maxOrder = Math.min(this.maxLpcOrder, n - 1);
    if (maxOrder > 0 && n > 32) {
      const lpc = this.tryLpc(data, n, bps, maxOrder);
      if (lpc && lpc.cost < best.cost) {
        best = lpc;
        this.bestFolded.set(this.folded.subarray(0, n));
      }
    }
    return best;
  }

  private tryLpc(data: Int32Array, n: number, bps: number, maxOrder: number): SubframePlan | null {
    const x = this.windowed;
    const window = this.window;
    if (n === window.length) for (let i = 0; i < n; i++) x[i] = data[i]! * window[i]!;
    // A short last block uses the full-length window stretched over it: close enough for an estimate.
    else for (let i = 0; i < n; i++) x[i] = data[i]! * window[Math.round((i * (window.length - 1)) / (n - 1))]!;
    const autoc = new Float64Array(maxOrder + 1);
    for (let lag = 0; lag <= maxOrder; lag++) {
      let sum = 0;
      for (let i = lag; i < n; i++) sum += x[i]! * x[i - lag]!;
      autoc[lag] = sum;
    }
    if (autoc[0] === 0) return null;
    const { coefficients, errors, orders } = levinson(autoc, maxOrder);
    if (orders === 0) return null;
    const precision = qlpPrecision(n, bps);
    // The order with the fewest expected bits: residual bits from the prediction error, plus the coefficients'.
    const errorScale = 0.5 / n;
    let order = 1;
    let fewest = Infinity;
    for (let o = 1; o <= orders; o++) {
      const error = errors[o - 1]!;
      const perSample = error > 0 ? Math.max(0, (0.5 * Math.log(errorScale * error)) / Math.LN2) : 0;
      const bits = perSample * (n - o) + o * (bps + precision);
      if (bits < fewest) {
        fewest = bits;
        order = o;
      }
    }
    const quantised = quantise(coefficients[order - 1]!, precision);
    if (!quantised) return null;
    if (!lpcResidual(data, n, quantised.coefficients, quantised.shift, this.residual)) return null;
    const rice = this.riceCost(n, order);
    if (!rice) return null;
    return {
      kind: 'lpc',
      bits: bps,
      order,
      wasted: 0,
      coefficients: quantised.coefficients,
      precision,
      shift: quantised.shift,
      partitionOrder: rice.partitionOrder,
      parameters: rice.parameters,
      cost: rice.cost + order * (bps + precision) + 4 + 5,
    };
  }

  /**
   * Folds `residual` (from index `order`) into `folded` and finds the partition order and Rice parameters with the
   * fewest bits, estimated from each partition's sum. Null when a residual does not fit 32 bits.
   */
  private riceCost(n: number, order: number): { partitionOrder: number; parameters: Int32Array; cost: number } | null {
    const residual = this.residual;
    const folded = this.folded;
    for (let i = order; i < n; i++) {
      const r = residual[i]!;
      folded[i] = r >= 0 ? r * 2 : -r * 2 - 1;
    }
    let maxOrder = 0;
    while (maxOrder < this.maxPartitionOrder && n % (1 << (maxOrder + 1)) === 0 && n >> (maxOrder + 1) > order) {
      maxOrder++;
    }
    const sums = this.partitionSums;
    const parts = 1 << maxOrder;
    const size = n >> maxOrder;
    for (let p = 0; p < parts; p++) {
      let sum = 0;
      const end = (p + 1) * size;
      for (let i = p === 0 ? order : p * size; i < end; i++) sum += folded[i]!;
      sums[p] = sum;
    }
    let best: { partitionOrder: number; parameters: Int32Array; cost: number } | null = null;
    for (let po = maxOrder; po >= 0; po--) {
      const count = 1 << po;
      if (po < maxOrder) {
        for (let p = 0; p < count; p++) sums[p] = sums[2 * p]! + sums[2 * p + 1]!;
      }
      const parameters = new Int32Array(count);
      let cost = 0;
      let wide = false;
      const partSize = n >> po;
      for (let p = 0; p < count; p++) {
        const samples = p === 0 ? partSize - order : partSize;
        const { k, bits } = bestParameter(sums[p]!, samples);
        parameters[p] = k;
        if (k > 14) wide = true;
        cost += bits;
      }
      cost += 2 + 4 + count * (wide ? 5 : 4);
      if (!best || cost < best.cost) best = { partitionOrder: po, parameters, cost };
    }
    return best;
  }

  private writeSubframe(plan: SubframePlan, data: Int32Array, n: number, bps: number): void {
    const w = this.writer;
    const typeCode =
      plan.kind === 'verbatim'
        ? 1
        : plan.kind === 'fixed'
          ? 8 | plan.order
          : plan.kind === 'lpc'
            ? 32 | (plan.order - 1)
            : 0;
    w.writeBits(0, 1);
    w.writeBits(typeCode, 6);
    if (plan.wasted > 0) {
      w.writeBits(1, 1);
      w.writeUnary(plan.wasted - 1);
    } else {
      w.writeBits(0, 1);
    }
    if (plan.kind === 'verbatim') {
      for (let i = 0; i < n; i++) w.writeSigned(data[i]!, bps);
      return;
    }
    for (let i = 0; i < plan.order; i++) w.writeSigned(data[i]!, bps);
    if (plan.kind === 'lpc') {
      w.writeBits(plan.precision - 1, 4);
      w.writeSigned(plan.shift, 5);
      for (let i = 0; i < plan.order; i++) w.writeSigned(plan.coefficients[i]!, plan.precision);
    }
    const parameters = plan.parameters;
    let wide = false;
    for (const k of parameters) if (k > 14) wide = true;
    w.writeBits(wide ? 1 : 0, 2);
    w.writeBits(plan.partitionOrder, 4);
    const folded = this.bestFolded;
    const partSize = n >> plan.partitionOrder;
    for (let p = 0; p < parameters.length; p++) {
      const k = parameters[p]!;
      w.writeBits(k, wide ? 5 : 4);
      const end = (p + 1) * partSize;
      for (let i = p === 0 ? plan.order : p * partSize; i < end; i++) w.writeRice(folded[i]!, k);
    }
  }
}

/** The Rice parameter with the fewest bits for a partition of `samples` folded residuals summing to `sum`. */
function bestParameter(sum: number, samples: number): { k: number; bits: number } {
  if (samples <= 0) return { k: 0, bits: 0 };
  if (sum === 0) return { k: 0, bits: samples };
  const mean = sum / samples;
  const guess = mean > 1 ? Math.floor(Math.log2(mean)) : 0;
  let bestK = 0;
  let bestBits = Infinity;
  for (let k = Math.max(0, guess - 1); k <= Math.min(30, guess + 1); k++) {
    // Each code is k + 1 bits plus its quotient; the quotients add up to about sum / 2^k less half a sample each.
    const bits = samples * (k + 1) + Math.max(0, sum / POW2[k]! - (k > 0 ? samples / 2 : 0));
    if (bits < bestBits) {
      bestBits = bits;
      bestK = k;
    }
  }
  return { k: bestK, bits: bestBits };
}

/** The fixed predictor order (0 to 4) whose residual has the smallest sum of magnitudes. */
function bestFixedOrder(x: Int32Array, n: number): number {
  if (n <= MAX_FIXED_ORDER) return 0;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let a = x[3]!;
  let b = x[3]! - x[2]!;
  let c = b - (x[2]! - x[1]!);
  let d = c - (x[2]! - 2 * x[1]! + x[0]!);
  for (let i = MAX_FIXED_ORDER; i < n; i++) {
    const e0 = x[i]!;
    const e1 = e0 - a;
    const e2 = e1 - b;
    const e3 = e2 - c;
    const e4 = e3 - d;
    a = e0;
    b = e1;
    c = e2;
    d = e3;
    s0 += Math.abs(e0);
    s1 += Math.abs(e1);
    s2 += Math.abs(e2);
    s3 += Math.abs(e3);
    s4 += Math.abs(e4);
  }
  const sums = [s0, s1, s2, s3, s4];
  let order = 0;
  for (let o = 1; o <= MAX_FIXED_ORDER; o++) if (sums[o]! < sums[order]!) order = o;
  return order;
}

function fixedResidual(x: Int32Array, n: number, order: number, out: Int32Array): void {
  switch (order) {
    case 0:
      for (let i = 0; i < n; i++) out[i] = x[i]!;
      break;
    case 1:
      for (let i = 1; i < n; i++) out[i] = x[i]! - x[i - 1]!;
      break;
    case 2:
      for (let i = 2; i < n; i++) out[i] = x[i]! - 2 * x[i - 1]! + x[i - 2]!;
      break;
    case 3:
      for (let i = 3; i < n; i++) out[i] = x[i]! - 3 * x[i - 1]! + 3 * x[i - 2]! - x[i - 3]!;
      break;
    default:
      for (let i = 4; i < n; i++) out[i] = x[i]! - 4 * x[i - 1]! + 6 * x[i - 2]! - 4 * x[i - 3]! + x[i - 4]!;
  }
}

/** Residual of the quantised predictor; false when one does not fit 32 bits (then LPC is not used). */
function lpcResidual(x: Int32Array, n: number, q: Int32Array, shift: number, out: Int32Array): boolean {
  const order = q.length;
  const divisor = POW2[shift]!;
  for (let i = order; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < order; j++) sum += q[j]! * x[i - j - 1]!;
    const r = x[i]! - Math.floor(sum / divisor);
    if (r > 0x3fffffff || r < -0x40000000) return false;
    out[i] = r;
  }
  return true;
}

/**
 * Levinson-Durbin recursion (libFLAC's FLAC__lpc_compute_lp_coefficients): predictor coefficients for each order up
 * to `maxOrder` (coefficient j multiplies the sample j + 1 back) and the prediction error of each.
 */
function levinson(
  autoc: Float64Array,
  maxOrder: number,
): { coefficients: Float64Array[]; errors: Float64Array; orders: number } {
  const lpc = new Float64Array(maxOrder);
  const coefficients: Float64Array[] = [];
  const errors = new Float64Array(maxOrder);
  let error = autoc[0]!;
  for (let i = 0; i < maxOrder; i++) {
    let r = -autoc[i + 1]!;
    for (let j = 0; j < i; j++) r -= lpc[j]! * autoc[i - j]!;
    r /= error;
    lpc[i] = r;
    let j = 0;
    for (; j < i >> 1; j++) {
      const tmp = lpc[j]!;
      lpc[j] = tmp + r * lpc[i - 1 - j]!;
      lpc[i - 1 - j] = lpc[i - 1 - j]! + r * tmp;
    }
    if (i & 1) lpc[j] = lpc[j]! + lpc[j]! * r;
    error *= 1 - r * r;
    const row = new Float64Array(i + 1);
    for (let k = 0; k <= i; k++) row[k] = -lpc[k]!;
    coefficients.push(row);
    errors[i] = error;
    if (!(error > 0) || !Number.isFinite(error)) return { coefficients, errors, orders: i + 1 };
  }
  return { coefficients, errors, orders: maxOrder };
}

/** libFLAC's default coefficient precision for a block size and bit depth. */
function qlpPrecision(n: number, bps: number): number {
  if (bps > 16) return n <= 384 ? 13 : n <= 1152 ? 14 : 15;
  if (n <= 192) return 7;
  if (n <= 384) return 8;
  if (n <= 576) return 9;
  if (n <= 1152) return 10;
  if (n <= 2304) return 11;
  if (n <= 4608) return 12;
  return 13;
}

/**
 * Quantises coefficients to `precision` signed bits with a shift of 0 to 15, carrying each rounding error into the
 * next coefficient (libFLAC's FLAC__lpc_quantize_coefficients). Null when the coefficients are too large to shift.
 */
function quantise(lp: Float64Array, precision: number): { coefficients: Int32Array; shift: number } | null {
  let cmax = 0;
  for (const c of lp) cmax = Math.max(cmax, Math.abs(c));
  if (!(cmax > 0) || !Number.isFinite(cmax)) return null;
  const bits = precision - 1;
  const qmax = (1 << bits) - 1;
  const qmin = -(1 << bits);
  // frexp: cmax = m * 2^e with 0.5 <= m < 1.
  const log2cmax = Math.floor(Math.log2(cmax)) + 1;
  let shift = bits - log2cmax;
  if (shift > 15) shift = 15;
  if (shift < 0) return null;
  const coefficients = new Int32Array(lp.length);
  let error = 0;
  for (let i = 0; i < lp.length; i++) {
    error += lp[i]! * POW2[shift]!;
    let q = Math.round(error);
    if (q > qmax) q = qmax;
    else if (q < qmin) q = qmin;
    error -= q;
    coefficients[i] = q;
  }
  return { coefficients, shift };
}

/** The stereo coding with the smallest order-2 residual, estimated over the block (ffmpeg's flacenc estimate). */
function chooseStereo(left: Int32Array, right: Int32Array, mid: Int32Array, side: Int32Array, n: number): Stereo {
  if (n < 3) return Stereo.Independent;
  let l = 0;
  let r = 0;
  let m = 0;
  let s = 0;
  for (let i = 2; i < n; i++) {
    l += Math.abs(left[i]! - 2 * left[i - 1]! + left[i - 2]!);
    r += Math.abs(right[i]! - 2 * right[i - 1]! + right[i - 2]!);
    m += Math.abs(mid[i]! - 2 * mid[i - 1]! + mid[i - 2]!);
    s += Math.abs(side[i]! - 2 * side[i - 1]! + side[i - 2]!);
  }
  const costs: [Stereo, number][] = [
    [Stereo.Independent, l + r],
    [Stereo.LeftSide, l + s],
    [Stereo.SideRight, s + r],
    [Stereo.MidSide, m + s],
  ];
  let best = costs[0]!;
  for (const c of costs) if (c[1] < best[1]) best = c;
  return best[0];
}

/** A Tukey window (libFLAC's default apodization for -5 is tukey(0.5)). */
function tukey(n: number, p: number): Float64Array {
  const w = new Float64Array(n).fill(1);
  const np = Math.floor((p / 2) * n);
  if (np > 1) {
    for (let i = 0; i < np; i++) {
      const v = 0.5 - 0.5 * Math.cos((Math.PI * i) / np);
      w[i] = v;
      w[n - np + i] = 0.5 - 0.5 * Math.cos((Math.PI * (i + np)) / np);
    }
  }
  return w;
}

/** A frame number in FLAC's UTF-8-like coding. */
function writeUtf8Number(w: BitWriter, value: number): void {
  if (value < 0x80) {
    w.writeBits(value, 8);
    return;
  }
  const bytes = value < 0x800 ? 2 : value < 0x10000 ? 3 : value < 0x200000 ? 4 : value < 0x4000000 ? 5 : 6;
  const lead = (0xff00 >> bytes) & 0xff;
  w.writeBits(lead | (value >>> (6 * (bytes - 1))), 8);
  for (let i = bytes - 2; i >= 0; i--) w.writeBits(0x80 | ((value >>> (6 * i)) & 0x3f), 8);
}
