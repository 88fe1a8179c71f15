import type { EnhancementPreset } from '@kora/contracts';
import type { StudioService } from './progress';

const MB = 1024 * 1024;

/** The spec's size limits per service (§5); the server checks them again. */
export const SIZE_LIMITS: Record<Exclude<StudioService, 'AI_MIXING'>, { min: number; max: number }> = {
  AUDIO_ENHANCEMENT: { min: 1024, max: 100 * MB },
  AI_MASTERING: { min: MB, max: 50 * MB },
  STEM_SEPARATION: { min: MB, max: 50 * MB },
};

const AUDIO_TYPES = ['audio/mp3', 'audio/mpeg', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'];
const AUDIO_EXTENSIONS = ['mp3', 'wav'];
const VIDEO_TYPES = ['video/mp4', 'video/mpeg', 'video/mov', 'video/quicktime', 'video/x-m4v'];
const VIDEO_EXTENSIONS = ['mp4', 'mpeg', 'mpg', 'mov', 'm4v'];

/**
 * The enhancement presets (spec §1) in the order the upload card offers them (the contract's `ENHANCEMENT_PRESETS`
 * lists the same in the engine's order): a voice, music or a podcast by name; audio lets the engine decide between
 * the voice and the music treatment; video enhances a video's sound.
 */
export const PRESET_CHOICES = [
  'voice',
  'music',
  'podcast',
  'audio',
  'video',
] as const satisfies readonly EnhancementPreset[];
/** Every preset the API takes is offered: one it adds and the list lacks fails the type check here. */
export const everyPresetOffered: [Exclude<EnhancementPreset, (typeof PRESET_CHOICES)[number]>] extends [never]
  ? true
  : never = true;

export interface FileFacts {
  name: string;
  size: number;
  type: string;
}

/** A message key of the `studio` namespace with what it shows. */
export interface FileProblem {
  key: 'fileSizeMin' | 'fileSizeMax' | 'audioFormat' | 'invalidVideoFormat' | 'fileRequired';
  limitMb?: number;
}

/** Megabytes as the messages show them: 1 KB is 0.001 MB. */
export const toMb = (bytes: number): number => Math.round((bytes / MB) * 1000) / 1000;

/**
 * What is wrong with a chosen file before it is sent (spec §5): its kind by MIME type (by extension when the browser
 * gives none), then its size. The server decides by content; this only spares a useless upload.
 */
export function checkFile(
  file: FileFacts | null,
  service: Exclude<StudioService, 'AI_MIXING'>,
  preset: EnhancementPreset,
): FileProblem | null {
  if (!file) return { key: 'fileRequired' };
  const video = service === 'AUDIO_ENHANCEMENT' && preset === 'video';
  const type = file.type.toLowerCase();
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const [types, extensions] = video ? [VIDEO_TYPES, VIDEO_EXTENSIONS] : [AUDIO_TYPES, AUDIO_EXTENSIONS];
  const knownKind = type ? types.includes(type) : extensions.includes(extension);
  if (!knownKind) return { key: video ? 'invalidVideoFormat' : 'audioFormat' };
  const { min, max } = SIZE_LIMITS[service];
  if (file.size < min) return { key: 'fileSizeMin', limitMb: toMb(min) };
  if (file.size > max) return { key: 'fileSizeMax', limitMb: toMb(max) };
  return null;
}

/** What the file input offers to pick. */
export function acceptFor(service: StudioService, preset: EnhancementPreset): string {
  return service === 'AUDIO_ENHANCEMENT' && preset === 'video'
    ? 'video/mp4,video/mpeg,video/quicktime,video/x-m4v,.mp4,.mpeg,.mpg,.mov,.m4v'
    : 'audio/mpeg,audio/wav,audio/x-wav,.mp3,.wav';
}
