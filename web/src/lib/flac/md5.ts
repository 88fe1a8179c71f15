/**
 * Incremental MD5 (RFC 1321) over bytes, for the STREAMINFO signature of a FLAC stream: the browser's SubtleCrypto
 * has no MD5 and hashes only whole buffers, and a 200 MB WAV is hashed here a megabyte at a time.
 */

// Per-round shift amounts and the constants floor(abs(sin(i + 1)) * 2^32).
const S = [
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4,
  11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];
const K = new Int32Array(64);
for (let i = 0; i < 64; i++) K[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0;

export class Md5 {
  private a = 0x67452301;
  private b = 0xefcdab89 | 0;
  private c = 0x98badcfe | 0;
  private d = 0x10325476;
  private readonly block = new Uint8Array(64);
  private readonly words = new Int32Array(16);
  private blockLength = 0;
  private totalBytes = 0;

  update(bytes: Uint8Array): void {
    this.totalBytes += bytes.length;
    let offset = 0;
    if (this.blockLength > 0) {
      const take = Math.min(64 - this.blockLength, bytes.length);
      this.block.set(bytes.subarray(0, take), this.blockLength);
      this.blockLength += take;
      offset = take;
      if (this.blockLength < 64) return;
      this.compress(this.block, 0);
      this.blockLength = 0;
    }
    for (; offset + 64 <= bytes.length; offset += 64) this.compress(bytes, offset);
    if (offset < bytes.length) {
      this.block.set(bytes.subarray(offset), 0);
      this.blockLength = bytes.length - offset;
    }
  }

  /** The 16-byte digest; the hash cannot be updated afterwards. */
  digest(): Uint8Array {
    const bits = this.totalBytes * 8;
    const padLength = this.blockLength < 56 ? 56 - this.blockLength : 120 - this.blockLength;
    const tail = new Uint8Array(padLength + 8);
    tail[0] = 0x80;
    const low = bits % 2 ** 32;
    const high = Math.floor(bits / 2 ** 32);
    for (let i = 0; i < 4; i++) {
      tail[padLength + i] = (low >>> (8 * i)) & 0xff;
      tail[padLength + 4 + i] = (high >>> (8 * i)) & 0xff;
    }
    const total = this.totalBytes;
    this.update(tail);
    this.totalBytes = total;
    const out = new Uint8Array(16);
    [this.a, this.b, this.c, this.d].forEach((word, i) => {
      for (let j = 0; j < 4; j++) out[4 * i + j] = (word >>> (8 * j)) & 0xff;
    });
    return out;
  }

  private compress(bytes: Uint8Array, offset: number): void {
    const m = this.words;
    for (let i = 0; i < 16; i++) {
      const o = offset + 4 * i;
      m[i] = bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24);
    }
    let a = this.a;
    let b = this.b;
    let c = this.c;
    let d = this.d;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const sum = (a + f + K[i]! + m[g]!) | 0;
      a = d;
      d = c;
      c = b;
      const s = S[i]!;
      b = (b + ((sum << s) | (sum >>> (32 - s)))) | 0;
    }
    this.a = (this.a + a) | 0;
    this.b = (this.b + b) | 0;
    this.c = (this.c + c) | 0;
    this.d = (this.d + d) | 0;
  }
}
