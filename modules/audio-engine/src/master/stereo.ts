/**
 * Stereo width in mid/side: M = (L + R) / 2, S = (L - R) / 2, L' = M' + w S', R' = M' - w S'.
 * The side signal is high-passed with an LR4 filter at 120 Hz so everything below is mono (club systems, vinyl,
 * mono phone speakers); the mid goes through the matching 2nd-order all-pass, because LR4 high-pass output carries
 * exactly that all-pass phase, so mid and side stay phase-aligned above the corner and the image does not smear.
 *
 * The width gain w comes from the measured side-to-mid ratio against the style's typical one, scaled by intensity
 * and bounded to +-3 dB; an input whose channels are anti-correlated (correlation < 0) is narrowed whatever the
 * style, and a mono input is left alone.
 */
import { BiquadChain, BUTTERWORTH_Q, allpass, highpass } from '../dsp/biquad';
import { clamp } from '../dsp/envelope';
import type { Tick } from '../stage/context';
import { type Pcm, frameCount } from '../pcm';
import type { StereoImage } from '../analysis/analyze';
import type { Intensity } from '../types';

export const MONO_BELOW_HZ = 120;
const CHUNK = 65536;

export interface StereoDecision {
  applied: boolean;
  monoBelowHz: number;
  widthDb: number;
  reason: string;
}

const AMOUNT: Record<Intensity, number> = { low: 0.35, medium: 0.55, high: 0.75 };

export function planStereo(image: StereoImage | null, targetSideToMidDb: number, intensity: Intensity): StereoDecision {
  if (!image) return { applied: false, monoBelowHz: 0, widthDb: 0, reason: 'mono input' };
  if (image.sideToMidDb === -Infinity) {
    return { applied: false, monoBelowHz: 0, widthDb: 0, reason: 'dual-mono input (no side signal)' };
  }
  let widthDb: number;
  let reason: string;
  if (image.correlation < 0) {
    widthDb = -3;
    reason = `channels anti-correlated (${image.correlation.toFixed(2)}): narrowed for mono compatibility`;
  } else {
    widthDb = clamp((targetSideToMidDb - image.sideToMidDb) * AMOUNT[intensity], -3, 3);
    reason = `side/mid ${image.sideToMidDb.toFixed(1)} dB toward ${targetSideToMidDb} dB`;
  }
  return { applied: true, monoBelowHz: MONO_BELOW_HZ, widthDb: Math.round(widthDb * 100) / 100, reason };
}

export async function applyStereo(pcm: Pcm, decision: StereoDecision, tick?: Tick): Promise<void> {
  if (!decision.applied || pcm.channels.length !== 2) return;
  const [l, r] = pcm.channels as [Float32Array, Float32Array];
  const n = frameCount(pcm);
  const fs = pcm.sampleRate;
  const hp = highpass(decision.monoBelowHz, fs, BUTTERWORTH_Q);
  const sideChain = new BiquadChain([hp, hp]);
  const midChain = new BiquadChain([allpass(decision.monoBelowHz, fs, BUTTERWORTH_Q)]);
  const w = Math.pow(10, decision.widthDb / 20);
  const mid = new Float32Array(CHUNK);
  const side = new Float32Array(CHUNK);
  for (let s = 0; s < n; s += CHUNK) {
    const e = Math.min(n, s + CHUNK);
    const len = e - s;
    for (let i = 0; i < len; i++) {
      mid[i] = (l[s + i]! + r[s + i]!) / 2;
      side[i] = (l[s + i]! - r[s + i]!) / 2;
    }
    midChain.run(mid, mid, 0, len);
    sideChain.run(side, side, 0, len);
    for (let i = 0; i < len; i++) {
      const sv = side[i]! * w;
      l[s + i] = mid[i]! + sv;
      r[s + i] = mid[i]! - sv;
    }
    if (tick) await tick(e / n);
  }
}
