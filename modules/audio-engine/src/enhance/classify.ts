/**
 * Speech or music? Used by the `audio` and `video` presets to pick the voice or the music chain.
 *
 * Two cues: RNNoise's voice probability (share of 10 ms frames above 0.5) and the modulation of the level at
 * syllable rate, measured as the share of 100 ms frames at least 15 dB below the 90th-percentile frame: speech stops
 * between words and phrases, music rarely drops that far. Speech when the voice share exceeds 0.6, or exceeds 0.35
 * with a pause share above 0.15. A heuristic with fixed thresholds, checked in the tests on synthetic speech and on
 * the synthetic band only; it is reported in the job report so a wrong call is visible.
 */
import { percentile } from '../dsp/envelope';

export interface ContentClass {
  content: 'speech' | 'music';
  voiceShare: number;
  pauseShare: number;
}

export function classifyContent(vad: Float32Array, mono: Float32Array, sampleRate: number): ContentClass {
  let voiced = 0;
  for (const p of vad) if (p > 0.5) voiced++;
  const voiceShare = vad.length ? voiced / vad.length : 0;
  const hop = Math.round(sampleRate / 10);
  const levels: number[] = [];
  for (let s = 0; s + hop <= mono.length; s += hop) {
    let e = 0;
    for (let i = s; i < s + hop; i++) e += mono[i]! * mono[i]!;
    levels.push(10 * Math.log10(e / hop + 1e-20));
  }
  const top = percentile(levels, 0.9);
  const pauses = levels.filter((l) => l < top - 15).length;
  const pauseShare = levels.length ? pauses / levels.length : 0;
  const speech = voiceShare > 0.6 || (voiceShare > 0.35 && pauseShare > 0.15);
  const r = (v: number) => Math.round(v * 1000) / 1000;
  return { content: speech ? 'speech' : 'music', voiceShare: r(voiceShare), pauseShare: r(pauseShare) };
}
