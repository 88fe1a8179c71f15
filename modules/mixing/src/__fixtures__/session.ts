import type { MixTrackFile, MixTrackSettings } from '../contracts/events';

/** A track's settings and a track of session s1, for the specs of the session and of its jobs (never built). */
export const settings: MixTrackSettings = {
  instrumentGroup: 'vocal',
  presenceSetting: 'NORMAL',
  panPreference: 'NO_PREFERENCE',
  reverbPreference: 'NONE',
};

export const file = (trackId: string): MixTrackFile & { settings: MixTrackSettings } => ({
  trackId,
  filename: `${trackId}.wav`,
  fileKey: `mix/s1/${trackId}.wav`,
  fileSize: 1_000_000,
  durationSec: 30,
  sampleRate: 44_100,
  channels: 2,
  settings,
});
