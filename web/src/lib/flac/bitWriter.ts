/** A big-endian bit writer over a growing byte buffer, with the two checksums a FLAC frame carries. */
export class BitWriter {
  private buffer: Uint8Array;
  private length = 0;
  /** Pending bits, `bits` of them, in the low end. */
  private acc = 0;
  private bits = 0;

  constructor(capacity = 1 << 16) {
    this.buffer = new Uint8Array(capacity);
  }

  /** Bytes written so far (the pending bits included only once byte-aligned and flushed). */
  get byteLength(): number {
    return this.length;
  }

  reset(): void {
    this.length = 0;
    this.acc = 0;
    this.bits = 0;
  }

  /** Writes the low `n` bits of `value` (0 <= value < 2^n, n <= 32). */
  writeBits(value: number, n: number): void {
    if (n === 0) return;
    const bits = this.bits;
    if (bits + n < 32) {
      this.acc = (this.acc << n) | value;
      this.bits = bits + n;
      return;
    }
    const take = 32 - bits;
    const rest = n - take;
    const high = rest === 0 ? value : value >>> rest;
    this.pushWord(take === 32 ? high : (this.acc << take) | high);
    this.acc = rest === 0 ? 0 : value & ((1 << rest) - 1);
    this.bits = rest;
  }

  /** Two's complement in `n` bits. */
  writeSigned(value: number, n: number): void {
    this.writeBits(n === 32 ? value >>> 0 : value & ((1 << n) - 1), n);
  }

  /** `count` zero bits then a one. */
  writeUnary(count: number): void {
    while (count >= 31) {
      this.writeBits(0, 31);
      count -= 31;
    }
    this.writeBits(1, count + 1);
  }

  /** A Rice code of the folded residual `u` with parameter `k` (k <= 30). */
  writeRice(u: number, k: number): void {
    const q = u >>> k;
    if (q + k < 31) {
      // The quotient's zeros, its stop bit and the remainder in one write.
      this.writeBits((1 << k) | (u & ((1 << k) - 1)), q + 1 + k);
      return;
    }
    this.writeUnary(q);
    if (k > 0) this.writeBits(u & ((1 << k) - 1), k);
  }

  /** Pads with zero bits to the next byte boundary and flushes the pending bytes. */
  alignAndFlush(): void {
    const pad = (8 - (this.bits & 7)) & 7;
    if (pad) this.writeBits(0, pad);
    this.ensure(4);
    while (this.bits > 0) {
      this.bits -= 8;
      this.buffer[this.length++] = (this.acc >>> this.bits) & 0xff;
    }
    this.acc = 0;
  }

  /** The bytes written (valid until the next write). Call `alignAndFlush` first. */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  private pushWord(word: number): void {
    this.ensure(4);
    const b = this.buffer;
    const i = this.length;
    b[i] = word >>> 24;
    b[i + 1] = (word >>> 16) & 0xff;
    b[i + 2] = (word >>> 8) & 0xff;
    b[i + 3] = word & 0xff;
    this.length = i + 4;
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

const CRC8 = new Uint8Array(256);
const CRC16 = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let c8 = i;
  let c16 = i << 8;
  for (let j = 0; j < 8; j++) {
    c8 = c8 & 0x80 ? ((c8 << 1) ^ 0x07) & 0xff : (c8 << 1) & 0xff;
    c16 = c16 & 0x8000 ? ((c16 << 1) ^ 0x8005) & 0xffff : (c16 << 1) & 0xffff;
  }
  CRC8[i] = c8;
  CRC16[i] = c16;
}

/** CRC-8 of a frame header (polynomial x^8 + x^2 + x + 1, initial 0). */
export function crc8(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = CRC8[crc ^ bytes[i]!]!;
  return crc;
}

/** CRC-16 of a whole frame (polynomial x^16 + x^15 + x^2 + 1, initial 0). */
export function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC16[(crc >>> 8) ^ bytes[i]!]!;
  return crc;
}
