import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolPath } from '@kora/audio-engine';
import { ffmpegTo } from '../../../modules/audio-engine/test/support/media-cache';

/** Test media made with ffmpeg (real files, real containers): music, speech-like sound, video. */
export function makeMedia(dir: string) {
  const ffmpeg = (args: string[], out: string): string => {
    const path = join(dir, out);
    ffmpegTo(toolPath('ffmpeg'), ['-hide_banner', '-loglevel', 'error', '-y', ...args], path);
    return path;
  };
  return {
    /** Stereo music-like WAV: a chord with a pulse and some noise (`seconds` long, 44.1 kHz, 16-bit). */
    music(seconds: number, name = 'music.wav'): string {
      return ffmpeg(
        [
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=220:duration=${seconds}`,
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=277:duration=${seconds}`,
          '-f',
          'lavfi',
          '-i',
          `anoisesrc=color=pink:amplitude=0.05:duration=${seconds}`,
          '-filter_complex',
          '[0][1][2]amix=inputs=3,volume=0.6,apulsator=hz=2,aformat=channel_layouts=stereo',
          '-ar',
          '44100',
          '-c:a',
          'pcm_s16le',
        ],
        name,
      );
    },
    /** The same as MP3. */
    mp3(seconds: number, name = 'music.mp3'): string {
      return ffmpeg(
        [
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=330:duration=${seconds}`,
          '-ac',
          '2',
          '-c:a',
          'libmp3lame',
          '-b:a',
          '192k',
        ],
        name,
      );
    },
    /** A mono voice-like signal with hum and noise, for enhancement. */
    voice(seconds: number, name = 'voice.wav'): string {
      return ffmpeg(
        [
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=180:duration=${seconds}`,
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=50:duration=${seconds}`,
          '-f',
          'lavfi',
          '-i',
          `anoisesrc=color=white:amplitude=0.02:duration=${seconds}`,
          '-filter_complex',
          '[0]volume=0.5,apulsator=hz=3[v];[1]volume=0.05[h];[v][h][2]amix=inputs=3',
          '-ac',
          '1',
          '-ar',
          '48000',
          '-c:a',
          'pcm_s16le',
        ],
        name,
      );
    },
    /** An MP4 with an H.264 picture and AAC sound. */
    video(seconds: number, name = 'clip.mp4', withAudio = true): string {
      return ffmpeg(
        [
          '-f',
          'lavfi',
          '-i',
          `testsrc=size=320x240:rate=25:duration=${seconds}`,
          ...(withAudio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-pix_fmt',
          'yuv420p',
          ...(withAudio ? ['-c:a', 'aac', '-shortest'] : []),
        ],
        name,
      );
    },
    /** Bytes that are not audio, under any name. */
    fake(name: string, size: number): string {
      const path = join(dir, name);
      writeFileSync(path, Buffer.alloc(size, 'not audio at all '));
      return path;
    },
  };
}
