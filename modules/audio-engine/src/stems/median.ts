/**
 * Sliding medians over strided rows of a matrix (the time and frequency median filters of harmonic/percussive
 * separation, Fitzgerald, "Harmonic/percussive separation using median filtering", DAFx 2010). The window is kept
 * sorted: each step finds the outgoing value by binary search and moves the incoming one from its place to where it
 * belongs, O(log L + d) per step where d is how far the incoming value's rank is from the outgoing one's (small for
 * the slowly changing magnitudes of a time median, at most L). At the edges the window is truncated (the median of
 * the values that exist).
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

  /** Replaces one value equal to `out` by `v`, keeping the window sorted. */
  private replace(out: number, v: number): void {
    const s = this.sorted;
    let i = this.find(out);
    if (v >= out) {
      const last = this.size - 1;
      while (i < last && s[i + 1]! < v) {
        s[i] = s[i + 1]!;
        i++;
      }
    } else {
      while (i > 0 && s[i - 1]! > v) {
        s[i] = s[i - 1]!;
        i--;
      }
    }
    s[i] = v;
  }

  private median(): number {
    const s = this.sorted;
    const m = this.size;
    return m % 2 ? s[(m - 1) >> 1]! : 0.5 * (s[m / 2 - 1]! + s[m / 2]!);
  }

  /**
   * Median-filters `count` values src[offset + i * stride] into dst[dstOffset + i * dstStride] (a different array,
   * or the same one with a different region). Only outputs `from` .. `to` - 1 are computed and written (the window
   * of each is the same as over the whole row), so a long row can be filtered piece by piece.
   */
  run(
    src: ArrayLike<number>,
    offset: number,
    stride: number,
    count: number,
    dst: Float32Array,
    dstOffset: number,
    dstStride: number,
    from = 0,
    to = count,
  ): void {
    const half = (this.length - 1) >> 1;
    this.size = 0;
    const at = (i: number) => src[offset + i * stride]!;
    const start = Math.max(0, from - half);
    for (let i = start; i < Math.min(count, from + half); i++) this.insert(at(i));
    for (let i = from; i < to; i++) {
      const incoming = i + half;
      const outgoing = i - half - 1;
      if (incoming < count && outgoing >= start) this.replace(at(outgoing), at(incoming));
      else if (incoming < count) this.insert(at(incoming));
      else if (outgoing >= start) this.remove(at(outgoing));
      dst[dstOffset + i * dstStride] = this.median();
    }
  }
}
