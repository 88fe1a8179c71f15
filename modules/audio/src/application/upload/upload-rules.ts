import type { TrackOptions } from '@kora/contracts';
import { EngineError, type ProbeResult, sniffHead } from '@kora/audio-engine';
import { DamagedFileError, FileTooLargeError, FileTooSmallError } from '@kora/kernel';
import {
  ENHANCEMENT_PRESETS,
  type EnhancementPreset,
  MASTERING_INTENSITIES,
  MASTERING_TARGETS,
  type MasteringIntensity,
  type MasteringTarget,
  STEM_MODES,
  type StemMode,
  TRACK_SERVICES,
  type TrackService,
} from '../../contracts/events';
import {
  AudioFormatError,
  InvalidIntensityError,
  InvalidModeError,
  InvalidPresetError,
  InvalidReferenceError,
  InvalidServiceError,
  InvalidTargetError,
  NoSoundInVideoError,
  SampleRateError,
  TooLongError,
  VideoFormatError,
} from '../../domain/errors';

const MB = 1024 * 1024;

/** The spec's size limits per service. */
export const SIZE_LIMITS: Record<TrackService, { min: number; max: number }> = {
  AUDIO_ENHANCEMENT: { min: 1024, max: 100 * MB },
  AI_MASTERING: { min: MB, max: 50 * MB },
  STEM_SEPARATION: { min: MB, max: 50 * MB },
};

export const LARGEST_UPLOAD = Math.max(...Object.values(SIZE_LIMITS).map((limit) => limit.max));

/**
 * The sample rates audio is made at, from the telephone's 8 kHz to the studio's 192 kHz. A header outside them lies
 * or is not audio: a 1.2 MB WAV declaring 100 Hz claimed 6,000 s, which the engine, working at 44.1 or 48 kHz,
 * would have made 4.6 GB of samples of.
 */
export const SAMPLE_RATES = { min: 8_000, max: 192_000 };

/**
 * The longest input per service, in seconds. The engine holds a job's audio in memory at its working rate, so memory
 * follows the duration, not the file's size (a 50 MB MP3 lasts almost an hour): these keep the largest job each
 * service accepts under 1.5 GB of memory, engine and ffmpeg together (`npm run bench:limits`, docs/benchmarks.md,
 * "Abuse"; at twice the mastering limit the peak was 3.2 GB, and 7.1 GB for 90 minutes of enhancement; stem
 * separation 1.25 GB at its limit, since it recomputes its spectrogram frame by frame instead of holding it). Lifting
 * them means an engine that works through a long file in pieces, which mastering and enhancement do not do yet.
 */
export const MAX_DURATION_SEC: Record<TrackService, number> = {
  AI_MASTERING: 10 * 60,
  STEM_SEPARATION: 10 * 60,
  AUDIO_ENHANCEMENT: 15 * 60,
};
/** A reference track is decoded and analysed beside the song: no longer than the longest song mastered. */
export const MAX_REFERENCE_SEC = MAX_DURATION_SEC.AI_MASTERING;

/**
 * The sample rate within `SAMPLE_RATES` and the duration within `maxSec` (the service's limit). A duration of null is
 * not known yet (a resumable upload's first bytes): only what is known is checked.
 */
function checkAudioShape(
  probe: Pick<ProbeResult, 'sampleRate'> & { audioDurationSec: number | null },
  maxSec: number,
  code: 'UPLOAD' | 'REFERENCE',
): void {
  const rate = probe.sampleRate;
  if (rate === null || rate < SAMPLE_RATES.min || rate > SAMPLE_RATES.max) {
    throw new (code === 'UPLOAD' ? SampleRateError : InvalidReferenceError)(
      `The audio's sample rate must be between ${SAMPLE_RATES.min / 1000} and ${SAMPLE_RATES.max / 1000} kHz.`,
      { minHz: SAMPLE_RATES.min, maxHz: SAMPLE_RATES.max },
    );
  }
  if (probe.audioDurationSec !== null && probe.audioDurationSec > maxSec) {
    throw new (code === 'UPLOAD' ? TooLongError : InvalidReferenceError)(
      `The recording is too long (at most ${maxSec / 60} minutes).`,
      { limitMinutes: maxSec / 60 },
    );
  }
}

export interface UploadChoice {
  service: TrackService;
  preset: EnhancementPreset | null;
  mode: StemMode | null;
  /** Mastering only: how far the chain goes (default medium) and the loudness target (default streaming, -14 LUFS). */
  intensity: MasteringIntensity | null;
  target: MasteringTarget | null;
}

/**
 * Reads the form's service, preset, mode and mastering settings, with the spec's defaults. With a reference track
 * and no target, mastering aims for the reference's loudness (target null).
 */
export function uploadChoice(fields: Partial<Record<keyof TrackOptions, string>>, hasReference = false): UploadChoice {
  const service = fields.service as TrackService;
  if (!TRACK_SERVICES.includes(service)) {
    throw new InvalidServiceError();
  }
  let preset: EnhancementPreset | null = null;
  let mode: StemMode | null = null;
  if (service === 'AUDIO_ENHANCEMENT') {
    preset = (fields.preset || 'audio') as EnhancementPreset;
    if (!ENHANCEMENT_PRESETS.includes(preset)) throw new InvalidPresetError();
  }
  if (service === 'STEM_SEPARATION') {
    mode = (fields.mode || 'vocals') as StemMode;
    if (!STEM_MODES.includes(mode)) throw new InvalidModeError();
  }
  let intensity: MasteringIntensity | null = null;
  let target: MasteringTarget | null = null;
  if (service === 'AI_MASTERING') {
    intensity = (fields.intensity || 'medium') as MasteringIntensity;
    if (!MASTERING_INTENSITIES.includes(intensity)) throw new InvalidIntensityError();
    if (fields.target || !hasReference) {
      target = (fields.target || 'streaming') as MasteringTarget;
      if (!MASTERING_TARGETS.includes(target)) throw new InvalidTargetError();
    }
  } else if (hasReference) {
    throw new InvalidReferenceError('Only mastering takes a reference track.');
  }
  return { service, preset, mode, intensity, target };
}

export function checkSize(service: TrackService, size: number): void {
  const { min, max } = SIZE_LIMITS[service];
  if (size < min) {
    const limitMb = min / MB;
    throw new FileTooSmallError(`The file is too small (at least ${formatMb(limitMb)} MB).`, {
      limitMb,
    });
  }
  if (size > max) {
    throw new FileTooLargeError(`The file is too large (at most ${max / MB} MB).`, { limitMb: max / MB }, 'too_large');
  }
}

function formatMb(mb: number): string {
  return mb >= 1 ? String(mb) : mb.toFixed(3).replace(/0+$/, '');
}

/**
 * A file cut short (a WAV whose data is shorter than its header declares, an MP4 without its index): it is the
 * right kind of file, but damaged, and saying "choose a WAV or MP3" would send its owner looking for the wrong fault.
 */
export function damagedFile(): DamagedFileError {
  return new DamagedFileError(
    'This file is damaged or incomplete (it may have been cut short while copying or downloading). Export or copy it again, then upload it.',
  );
}

/** Not the kind of file the choice takes: a video for the video preset, else WAV or MP3 audio. */
export function wrongFormat(video: boolean): VideoFormatError | AudioFormatError {
  return video ? new VideoFormatError() : new AudioFormatError();
}

export function noSoundInVideo(): NoSoundInVideoError {
  return new NoSoundInVideoError();
}

export function invalidReference(): InvalidReferenceError {
  return new InvalidReferenceError('The reference must be a WAV or MP3 audio file.');
}

/**
 * The engine's refusal to read a file (`probe`) as the upload's, the same wherever it is met: cut short, a video
 * without sound, else not the format asked for. Anything that is not an engine error comes back unchanged.
 */
export function unreadable(error: unknown, video = false): unknown {
  if (!(error instanceof EngineError)) return error;
  if (error.code === 'ENGINE.TRUNCATED_INPUT') return damagedFile();
  if (error.code === 'ENGINE.NO_AUDIO_TRACK') return noSoundInVideo();
  return wrongFormat(video);
}

// FLAC: what the web app sends of a WAV (lossless, about half the bytes on a phone's network).
const AUDIO = new Set(['wav', 'mp3', 'flac']);
const VIDEO = new Set(['mp4', 'mov', 'm4v', 'mpeg-ps', 'mpeg-ts']);

/** What the content must be for the choice: WAV or MP3 audio, or for the video preset a video with sound. */
export function checkContent(choice: UploadChoice, probe: ProbeResult): { isVideo: boolean } {
  const isVideoPreset = choice.service === 'AUDIO_ENHANCEMENT' && choice.preset === 'video';
  if (isVideoPreset) {
    if (!VIDEO.has(probe.container) || !probe.hasVideo) {
      throw wrongFormat(true);
    }
    if (!probe.hasAudio) throw noSoundInVideo();
    checkAudioShape(probe, MAX_DURATION_SEC[choice.service], 'UPLOAD');
    return { isVideo: true };
  }
  if (!AUDIO.has(probe.container) || !probe.hasAudio || probe.hasVideo) {
    throw wrongFormat(false);
  }
  if (!(probe.audioDurationSec > 0)) throw new AudioFormatError('This file contains no sound.');
  checkAudioShape(probe, MAX_DURATION_SEC[choice.service], 'UPLOAD');
  return { isVideo: false };
}

/**
 * Whether an earlier upload would be taken by a service (and preset) as `checkSize` and `checkContent` judge it,
 * from what was found in it at its upload: the media library offers only those.
 */
export function fitsChoice(
  file: { fileSize: number; format: string; isVideo: boolean; durationSec: number },
  service: TrackService,
  preset: EnhancementPreset | null,
): boolean {
  const { min, max } = SIZE_LIMITS[service];
  if (file.fileSize < min || file.fileSize > max) return false;
  const wantsVideo = service === 'AUDIO_ENHANCEMENT' && preset === 'video';
  const kindFits = wantsVideo ? file.isVideo && VIDEO.has(file.format) : !file.isVideo && AUDIO.has(file.format);
  return kindFits && !(file.durationSec > MAX_DURATION_SEC[service]);
}

/** A reference track must be WAV or MP3 audio with sound, like a track to master. */
export function checkReference(probe: ProbeResult): void {
  if (!AUDIO.has(probe.container) || !probe.hasAudio || probe.hasVideo || !(probe.audioDurationSec > 0)) {
    throw invalidReference();
  }
  checkAudioShape(probe, MAX_REFERENCE_SEC, 'REFERENCE');
}

export const CONTENT_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  'mpeg-ps': 'video/mpeg',
  'mpeg-ts': 'video/mp2t',
};

/**
 * A resumable upload's first bytes, checked as the whole file will be once it has arrived, as far as they tell: the
 * container (WAV, MP3 or FLAC audio; a video for the video preset), and for WAV and FLAC the sample rate and the
 * duration their headers declare. A file refused here is refused before the rest of it is sent, with the code the
 * whole file would have got.
 */
export async function checkHead(
  target: { service: TrackService; preset: string | null } | 'reference',
  head: Buffer,
  length: number,
): Promise<void> {
  const sniffed = await sniffHead(head, length);
  // A FLAC (the web app's lossless copy of a WAV) is held to the sizes of the WAV it stands for.
  if (target !== 'reference' && sniffed.pcmBytes !== null) checkSize(target.service, sniffed.pcmBytes);
  const shape = { sampleRate: sniffed.sampleRate, audioDurationSec: sniffed.durationSec };
  const known = sniffed.sampleRate !== null;
  if (target === 'reference') {
    if (!AUDIO.has(sniffed.container)) {
      throw invalidReference();
    }
    if (known) checkAudioShape(shape, MAX_REFERENCE_SEC, 'REFERENCE');
    return;
  }
  if (target.service === 'AUDIO_ENHANCEMENT' && target.preset === 'video') {
    if (!VIDEO.has(sniffed.container)) {
      throw wrongFormat(true);
    }
    return;
  }
  if (!AUDIO.has(sniffed.container)) {
    throw wrongFormat(false);
  }
  if (known) checkAudioShape(shape, MAX_DURATION_SEC[target.service], 'UPLOAD');
}

/**
 * The size a file counts for against a service's limits: its own, or for a FLAC the WAV of the same samples (the web
 * app compresses a WAV before sending it; the limits are the WAV's, and a 1.5 MB WAV must not become too small).
 */
export async function countedSize(head: Buffer, length: number): Promise<number> {
  return (await sniffHead(head, length)).pcmBytes ?? length;
}

/** Whether an upload's metadata say it is a FLAC: its size is then checked by its content (`checkHead`), not sent. */
export function sizeByContent(metadata: Readonly<Record<string, string>>): boolean {
  return metadata.encoding === 'flac';
}
