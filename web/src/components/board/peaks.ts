/** A waveform's data: the bars computed once from decoded audio, and how tall to draw them. */

/**
 * A waveform's bars from decoded audio: for each channel (two at most, drawn top and bottom), the largest magnitude
 * in each of `count` equal slices. Enough for the board's width, and a few kilobytes instead of the samples.
 */
export function peaksOf(
  buffer: Pick<AudioBuffer, 'numberOfChannels' | 'getChannelData'>,
  count = 1600,
): Float32Array[] {
  const channels = Math.min(2, buffer.numberOfChannels);
  const peaks: Float32Array[] = [];
  for (let c = 0; c < channels; c += 1) {
    const samples = buffer.getChannelData(c);
    const bars = Math.max(1, Math.min(count, samples.length));
    const out = new Float32Array(bars);
    for (let bar = 0; bar < bars; bar += 1) {
      const start = Math.floor((bar * samples.length) / bars);
      const end = Math.floor(((bar + 1) * samples.length) / bars);
      let max = 0;
      for (let i = start; i < end; i += 1) {
        const magnitude = Math.abs(samples[i] ?? 0);
        if (magnitude > max) max = magnitude;
      }
      out[bar] = max;
    }
    peaks.push(out);
  }
  return peaks;
}

/** Quiet rows are drawn up to 4 times (12 dB) taller so their shape shows; silence stays flat, loud rows as they are. */
export function barScale(peaks: readonly Float32Array[]): number {
  let max = 0;
  for (const channel of peaks) for (const value of channel) max = Math.max(max, Math.abs(value));
  return max > 0 ? Math.min(4, Math.max(1, 0.95 / max)) : 1;
}
