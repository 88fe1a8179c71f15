import { describe, expect, it } from '@jest/globals';
import { uploadAccess } from './useUploadAccess';

const withStems = (remaining: number) => ({
  remaining: { AI_MASTERING: 0, STEM_SEPARATION: remaining, AUDIO_ENHANCEMENT: 0, AI_MIXING: 0 },
});

describe('upload access (spec §2: the subscribe button replaces the file picker)', () => {
  it('opens stem separation and enhancement only while their own quota is above 0', () => {
    expect(uploadAccess('STEM_SEPARATION', withStems(2), false)).toBe('open');
    expect(uploadAccess('STEM_SEPARATION', withStems(0), false)).toBe('subscribe');
    expect(uploadAccess('STEM_SEPARATION', withStems(-1), false)).toBe('subscribe');
    expect(uploadAccess('AUDIO_ENHANCEMENT', withStems(2), false)).toBe('subscribe');
  });

  it('reads the per-service totals when the remaining map is absent', () => {
    expect(uploadAccess('AUDIO_ENHANCEMENT', { services: { AUDIO_ENHANCEMENT: { remaining: 3 } } }, false)).toBe(
      'open',
    );
    expect(uploadAccess('AUDIO_ENHANCEMENT', { services: {} }, false)).toBe('subscribe');
  });

  it('asks to subscribe when the details are missing: no plan (404) or an unreadable answer', () => {
    expect(uploadAccess('STEM_SEPARATION', null, false)).toBe('subscribe');
    expect(uploadAccess('AUDIO_ENHANCEMENT', undefined, true)).toBe('subscribe');
    expect(uploadAccess('AUDIO_ENHANCEMENT', undefined, false)).toBe('checking');
  });

  it('leaves mastering open whatever the credits', () => {
    expect(uploadAccess('AI_MASTERING', null, false)).toBe('open');
    expect(uploadAccess('AI_MASTERING', undefined, true)).toBe('open');
    expect(uploadAccess('AI_MASTERING', withStems(0), false)).toBe('open');
  });
});
