/** Planar 32-bit float PCM, the engine's one in-memory audio representation. Samples are nominally in [-1, 1]. */
export interface Pcm {
  sampleRate: number;
  /** One array per channel, all of the same length. */
  channels: Float32Array[];
}

export function frameCount(pcm: Pcm): number {
  return pcm.channels[0]?.length ?? 0;
}

/** Multiplies every sample by `gain` in place. */
export function applyGain(pcm: Pcm, gain: number): void {
  for (const ch of pcm.channels) for (let i = 0; i < ch.length; i++) ch[i]! *= gain;
}

/** Interleaves planar channels into one Float32Array (frame-major), e.g. for piping to ffmpeg as f32le. */
export function interleave(channels: Float32Array[], start = 0, end = channels[0]?.length ?? 0): Float32Array {
  const n = channels.length;
  const out = new Float32Array((end - start) * n);
  for (let c = 0; c < n; c++) {
    const ch = channels[c]!;
    for (let i = start, j = c; i < end; i++, j += n) out[j] = ch[i]!;
  }
  return out;
}
