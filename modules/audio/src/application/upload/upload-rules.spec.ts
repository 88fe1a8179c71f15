import type { ProbeResult } from '@kora/audio-engine';
import { describe, expect, it } from '@jest/globals';
import { checkContent, checkReference, MAX_DURATION_SEC, MAX_REFERENCE_SEC, uploadChoice } from './upload-rules';

/** What the probe says of a WAV of `seconds` at `rate` Hz. */
const wav = (seconds: number, rate = 44_100): ProbeResult =>
  ({
    sizeBytes: 1_000_000,
    container: 'wav',
    family: 'audio',
    formatName: 'wav',
    accepted: true,
    hasAudio: true,
    hasVideo: false,
    durationSec: seconds,
    audioDurationSec: seconds,
    sampleRate: rate,
    channels: 2,
    audioCodec: 'pcm_s16le',
    videoCodec: null,
    video: null,
    wav: null,
    durationIsExact: true,
  }) as unknown as ProbeResult;

const refusal = (run: () => unknown): { code: string; details?: unknown } | null => {
  try {
    run();
    return null;
  } catch (error) {
    const { code, details } = error as { code: string; details?: unknown };
    return { code, details };
  }
};

describe('what an upload may hold', () => {
  const mastering = uploadChoice({ service: 'AI_MASTERING' });
  const stems = uploadChoice({ service: 'STEM_SEPARATION' });

  it('refuses a sample rate no audio is made at, whatever the header claims', () => {
    expect(refusal(() => checkContent(mastering, wav(60, 100)))).toEqual({
      code: 'UPLOAD.SAMPLE_RATE',
      details: { minHz: 8_000, maxHz: 192_000 },
    });
    expect(refusal(() => checkContent(mastering, wav(60, 384_000)))?.code).toBe('UPLOAD.SAMPLE_RATE');
    for (const rate of [8_000, 22_050, 44_100, 48_000, 96_000, 192_000]) {
      expect(refusal(() => checkContent(mastering, wav(60, rate)))).toBeNull();
    }
  });

  it('refuses a recording longer than the service takes, with its limit in minutes', () => {
    expect(refusal(() => checkContent(mastering, wav(MAX_DURATION_SEC.AI_MASTERING)))).toBeNull();
    expect(refusal(() => checkContent(mastering, wav(MAX_DURATION_SEC.AI_MASTERING + 1)))).toEqual({
      code: 'UPLOAD.TOO_LONG',
      details: { limitMinutes: MAX_DURATION_SEC.AI_MASTERING / 60 },
    });
    expect(refusal(() => checkContent(stems, wav(MAX_DURATION_SEC.STEM_SEPARATION + 1)))?.code).toBe('UPLOAD.TOO_LONG');
  });

  it('holds a reference track to the same rules, under its own code', () => {
    expect(refusal(() => checkReference(wav(30, 100)))?.code).toBe('UPLOAD.INVALID_REFERENCE');
    expect(refusal(() => checkReference(wav(MAX_REFERENCE_SEC + 1)))?.code).toBe('UPLOAD.INVALID_REFERENCE');
    expect(refusal(() => checkReference(wav(MAX_REFERENCE_SEC)))).toBeNull();
  });
});
