/**
 * Sliding medians over strided rows of a matrix (the time and frequency median filters of harmonic/percussive
 * separation, Fitzgerald, "Harmonic/percussive separation using median filtering", DAFx 2010). The window is kept
 * sorted: each step removes the outgoing value and inserts the incoming one by binary search, O(L) per step for a
 * window of L values. At the edges the window is truncated (the median of the values that exist).
 */
export class SlidingMedian {
  private readonly sorted: Float64Array;
  private size = 0;

  constructor(readonly length: number) {
    if (length < 1 || length % 2 === 0) throw new RangeError('median length must be odd and positive');
    this.sorted = new Float64Array(length + 1);
  }

  private find(v: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(v: number): void {
    const s = this.sorted;
    const at = this.find(v);
    for (let i = this.size; i > at; i--) s[i] = s[i - 1]!;
    s[at] = v;
    this.size++;
  }

  private remove(v: number): void {
    const s = this.sorted;
    const at = this.find(v);
    for (let i = at; i < this.size - 1; i++) s[i] = s[i + 1]!;
    this.size--;
  }

  private median(): number {
    const s = this.sorted;
    const m = this.size;
    return m % 2 ? s[(m - 1) >> 1]! : 0.5 * (s[m / 2 - 1]! + s[m / 2]!);
  }

  /**
   * Median-filters `count` values src[offset + i * stride] into dst[dstOffset + i * dstStride] (a different array,
   * or the same one with a different region).
   */
  run(
    src: ArrayLike<number>,
    offset: number,
    stride: number,
    count: number,
    dst: Float32Array,
    dstOffset: number,
    dstStride: number,
  ): void {
    const half = (this.length - 1) >> 1;
    this.size = 0;
    const at = (i: number) => src[offset + i * stride]!;
    for (let i = 0; i < Math.min(count, half); i++) this.insert(at(i));
    for (let i = 0; i < count; i++) {
      const incoming = i + half;
      if (incoming < count) this.insert(at(incoming));
      const outgoing = i - half - 1;
      if (outgoing >= 0) this.remove(at(outgoing));
      dst[dstOffset + i * dstStride] = this.median();
    }
  }
}
