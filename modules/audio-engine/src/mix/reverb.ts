/**
 * The shared algorithmic reverb: Schroeder-Moorer topology as in Jezar's Freeverb (public domain): eight parallel
 * lowpass-feedback comb filters and four series all-pass filters per channel, the right channel's delays offset by 23
 * samples for width, delays scaled from 44.1 kHz to the working rate. Each side of the reverb is fed mostly by the same
 * side of the send (75 %, 25 % from the other), so a panned part's reverb stays on its side. Room size (feedback),
 * damping and pre-delay come from the musical style. The reverb is linear and time-invariant, so running it on each track's send separately and
 * summing gives exactly the shared reverb of the summed sends: each track's file can carry its own share.
 */
import type { MusicalStyle } from '../types';

const COMBS = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617];
const ALLPASSES = [556, 441, 341, 225];
const SPREAD = 23;

export interface ReverbParams {
  /** Comb feedback (0.7 .. 0.98: longer decay). */
  roomSize: number;
  /** High-frequency damping in the feedback (0 .. 1). */
  damping: number;
  preDelayMs: number;
  /** Approximate RT60 in seconds, reported. */
  decaySec: number;
}

export const STYLE_REVERB: Record<MusicalStyle, ReverbParams> = {
  POP: { roomSize: 0.84, damping: 0.4, preDelayMs: 25, decaySec: 1.6 },
  ROCK_INDIE: { roomSize: 0.82, damping: 0.45, preDelayMs: 20, decaySec: 1.4 },
  ACOUSTIC: { roomSize: 0.86, damping: 0.35, preDelayMs: 20, decaySec: 1.8 },
  HIPHOP_GRIME: { roomSize: 0.78, damping: 0.5, preDelayMs: 15, decaySec: 1.1 },
  ELECTRONIC: { roomSize: 0.86, damping: 0.3, preDelayMs: 30, decaySec: 1.8 },
  REGGAE_DUB: { roomSize: 0.9, damping: 0.3, preDelayMs: 40, decaySec: 2.4 },
  ORCHESTRAL: { roomSize: 0.9, damping: 0.35, preDelayMs: 30, decaySec: 2.5 },
  METAL: { roomSize: 0.8, damping: 0.5, preDelayMs: 15, decaySec: 1.2 },
  OTHER: { roomSize: 0.84, damping: 0.4, preDelayMs: 25, decaySec: 1.6 },
};

class Comb {
  private readonly buf: Float32Array;
  private i = 0;
  private store = 0;
  constructor(
    size: number,
    private readonly feedback: number,
    private readonly damp: number,
  ) {
    this.buf = new Float32Array(size);
  }
  run(input: Float32Array, out: Float32Array): void {
    const b = this.buf;
    const n = b.length;
    const fb = this.feedback;
    const d1 = this.damp;
    const d2 = 1 - d1;
    let i = this.i;
    let store = this.store;
    for (let k = 0; k < input.length; k++) {
      const y = b[i]!;
      store = y * d2 + store * d1;
      b[i] = input[k]! + store * fb;
      out[k] = out[k]! + y;
      if (++i >= n) i = 0;
    }
    this.i = i;
    this.store = store;
  }
}

class Allpass {
  private readonly buf: Float32Array;
  private i = 0;
  constructor(size: number) {
    this.buf = new Float32Array(size);
  }
  run(x: Float32Array): void {
    const b = this.buf;
    const n = b.length;
    let i = this.i;
    for (let k = 0; k < x.length; k++) {
      const bo = b[i]!;
      const v = x[k]!;
      b[i] = v + bo * 0.5;
      x[k] = bo - v;
      if (++i >= n) i = 0;
    }
    this.i = i;
  }
}

/**
 * Renders the stereo reverb of a stereo send (`send`, left and right, already scaled) into `left` and `right`
 * (added), with the output normalised so that a steady white-noise send comes back at about its own RMS.
 */
export function renderReverb(
  send: readonly [Float32Array, Float32Array],
  sampleRate: number,
  params: ReverbParams,
  left: Float32Array,
  right: Float32Array,
): void {
  const scale = sampleRate / 44100;
  const fb = params.roomSize;
  const damp = params.damping;
  const pre = Math.round((params.preDelayMs / 1000) * sampleRate);
  const n = send[0].length;
  // Steady-state gain of the comb bank for white noise: each comb passes ~1 / sqrt(1 - fb^2) (damping ignored),
  // eight of them add in power, the all-passes keep the power.
  const norm = 1 / (Math.sqrt(8) / Math.sqrt(1 - fb * fb));
  const block = 8192;
  const channels = [left, right];
  for (let c = 0; c < 2; c++) {
    const combs = COMBS.map((d) => new Comb(Math.round((d + c * SPREAD) * scale), fb, damp));
    const aps = ALLPASSES.map((d) => new Allpass(Math.round((d + c * SPREAD) * scale)));
    const inBuf = new Float32Array(block);
    const outBuf = new Float32Array(block);
    const dst = channels[c]!;
    const own = send[c === 0 ? 0 : 1];
    const across = send[c === 0 ? 1 : 0];
    for (let s = 0; s < n; s += block) {
      const len = Math.min(block, n - s);
      const ib = len === block ? inBuf : inBuf.subarray(0, len);
      const ob = len === block ? outBuf : outBuf.subarray(0, len);
      for (let k = 0; k < len; k++) {
        const j = s + k - pre;
        ib[k] = j >= 0 ? 0.75 * own[j]! + 0.25 * across[j]! : 0;
      }
      ob.fill(0);
      for (const comb of combs) comb.run(ib, ob);
      for (const ap of aps) ap.run(ob);
      for (let k = 0; k < len; k++) dst[s + k] = dst[s + k]! + ob[k]! * norm;
    }
  }
}
