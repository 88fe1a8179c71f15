import { describe, expect, it } from '@jest/globals';
import { checkFile, toMb } from './validation';

const MB = 1024 * 1024;
const file = (name: string, size: number, type: string) => ({ name, size, type });

describe('file checks before an upload (spec §5)', () => {
  it('take WAV and MP3 for mastering and stems, within 1 to 50 MB', () => {
    expect(checkFile(file('song.wav', 2 * MB, 'audio/wav'), 'AI_MASTERING', 'audio')).toBeNull();
    expect(checkFile(file('song.mp3', 2 * MB, 'audio/mpeg'), 'STEM_SEPARATION', 'audio')).toBeNull();
    expect(checkFile(file('song.wav', 2 * MB, 'audio/x-wav'), 'AI_MASTERING', 'audio')).toBeNull();
    expect(checkFile(file('song.wav', MB - 1, 'audio/wav'), 'AI_MASTERING', 'audio')).toEqual({
      key: 'fileSizeMin',
      limitMb: 1,
    });
    expect(checkFile(file('song.wav', 50 * MB + 1, 'audio/wav'), 'STEM_SEPARATION', 'audio')).toEqual({
      key: 'fileSizeMax',
      limitMb: 50,
    });
  });

  it('take 1 KB to 100 MB for enhancement, the minimum said in MB', () => {
    expect(checkFile(file('voice.mp3', 2048, 'audio/mpeg'), 'AUDIO_ENHANCEMENT', 'audio')).toBeNull();
    expect(checkFile(file('voice.mp3', 1000, 'audio/mpeg'), 'AUDIO_ENHANCEMENT', 'audio')).toEqual({
      key: 'fileSizeMin',
      limitMb: 0.001,
    });
    expect(checkFile(file('voice.wav', 101 * MB, 'audio/wav'), 'AUDIO_ENHANCEMENT', 'audio')).toEqual({
      key: 'fileSizeMax',
      limitMb: 100,
    });
  });

  it('refuse other kinds of file with audioFormat, or invalidVideoFormat for the video preset', () => {
    expect(checkFile(file('cover.png', 2 * MB, 'image/png'), 'AI_MASTERING', 'audio')).toEqual({ key: 'audioFormat' });
    expect(checkFile(file('clip.mp4', 2 * MB, 'video/mp4'), 'AUDIO_ENHANCEMENT', 'audio')).toEqual({
      key: 'audioFormat',
    });
    expect(checkFile(file('song.wav', 2 * MB, 'audio/wav'), 'AUDIO_ENHANCEMENT', 'video')).toEqual({
      key: 'invalidVideoFormat',
    });
    for (const [name, type] of [
      ['clip.mp4', 'video/mp4'],
      ['clip.mov', 'video/quicktime'],
      ['clip.m4v', 'video/x-m4v'],
      ['clip.mpeg', 'video/mpeg'],
    ]) {
      expect(checkFile(file(name!, 2 * MB, type!), 'AUDIO_ENHANCEMENT', 'video')).toBeNull();
    }
  });

  it('fall back on the extension when the browser gives no type, and need a file', () => {
    expect(checkFile(file('song.WAV', 2 * MB, ''), 'AI_MASTERING', 'audio')).toBeNull();
    expect(checkFile(file('song.flac', 2 * MB, ''), 'AI_MASTERING', 'audio')).toEqual({ key: 'audioFormat' });
    expect(checkFile(null, 'AI_MASTERING', 'audio')).toEqual({ key: 'fileRequired' });
  });

  it('say megabytes with up to three decimals', () => {
    expect(toMb(1024)).toBe(0.001);
    expect(toMb(50 * MB)).toBe(50);
  });
});
