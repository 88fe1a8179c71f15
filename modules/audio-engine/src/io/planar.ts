/** Streaming deinterleaver for f32le PCM coming out of ffmpeg. */

/** Collects interleaved little-endian float32 bytes into growing planar channel arrays. */
export class PlanarCollector {
  private data: Float32Array[];
  private frames = 0;
  private readonly carry = new Uint8Array(64);
  private carryLength = 0;
  private readonly scratchBytes = new Uint8Array(1 << 20);
  private readonly scratch = new Float32Array(this.scratchBytes.buffer);

  constructor(
    private readonly channelCount: number,
    expectedFrames: number,
  ) {
    const initial = Math.max(4096, Math.ceil(expectedFrames * 1.02) + 4096);
    this.data = Array.from({ length: channelCount }, () => new Float32Array(initial));
  }

  get framesCollected(): number {
    return this.frames;
  }

  private ensure(frames: number): void {
    const capacity = this.data[0]!.length;
    if (frames <= capacity) return;
    const next = Math.max(frames, capacity * 2);
    this.data = this.data.map((old) => {
      const grown = new Float32Array(next);
      grown.set(old.subarray(0, this.frames));
      return grown;
    });
  }

  push(chunk: Uint8Array): void {
    const n = this.channelCount;
    const frameBytes = 4 * n;
    let offset = 0;
    while (offset < chunk.length) {
      // Fill the aligned scratch with the carried-over bytes plus as much of the chunk as fits in whole frames.
      const room = this.scratchBytes.length - (this.scratchBytes.length % frameBytes);
      const take = Math.min(chunk.length - offset, room - this.carryLength);
      this.scratchBytes.set(this.carry.subarray(0, this.carryLength), 0);
      this.scratchBytes.set(chunk.subarray(offset, offset + take), this.carryLength);
      const bytes = this.carryLength + take;
      offset += take;
      const whole = Math.floor(bytes / frameBytes);
      this.ensure(this.frames + whole);
      const s = this.scratch;
      for (let c = 0; c < n; c++) {
        const out = this.data[c]!;
        for (let f = 0, j = c, k = this.frames; f < whole; f++, j += n, k++) out[k] = s[j]!;
      }
      this.frames += whole;
      const rest = bytes - whole * frameBytes;
      this.carry.set(this.scratchBytes.subarray(whole * frameBytes, bytes), 0);
      this.carryLength = rest;
    }
  }

  result(): Float32Array[] {
    // A view, not a copy: the spare capacity (2 % at most when the length was known) is not worth a 2x memcpy.
    return this.data.map((d) => (d.length === this.frames ? d : d.subarray(0, this.frames)));
  }

  /**
   * Exactly `frames` frames per channel: the collected ones cut or padded with zeros. A view where the capacity
   * allows (the arrays are never written past what was collected, so the padding is already zero), else a copy.
   */
  resultOfLength(frames: number): Float32Array[] {
    return this.data.map((d) => {
      if (frames <= d.length) return d.length === frames ? d : d.subarray(0, frames);
      const fixed = new Float32Array(frames);
      fixed.set(d.subarray(0, this.frames));
      return fixed;
    });
  }
}
