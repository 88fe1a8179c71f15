import type { TrackService, TrackStatus } from '../../contracts/events';

const ANALYZING = new Set(['start', 'decode', 'analyze', 'reference', 'probe']);
const FINALIZING = new Set(['resample', 'check', 'write', 'preview', 'after', 'outputs', 'mux', 'done']);

/** The spec's status for an engine stage: analysing the input, working on it, or writing the results. */
export function statusForStage(service: TrackService, stage: string): TrackStatus {
  if (service === 'STEM_SEPARATION') return 'STEMS_PROCESSING';
  if (ANALYZING.has(stage)) return 'ANALYZING';
  if (FINALIZING.has(stage)) return 'FINALIZING';
  return 'ENHANCING';
}

/** Default real-time factors until the engine's speed has been measured (seconds of work per second of audio). */
export const DEFAULT_REAL_TIME_FACTOR: Record<TrackService, number> = {
  AI_MASTERING: 0.05,
  AUDIO_ENHANCEMENT: 0.05,
  STEM_SEPARATION: 0.25,
};

/** Messages for the codes a job can fail with; the client translates the code when it knows it. */
export const FAILURE_MESSAGES: Record<string, string> = {
  'ENGINE.DECODE_FAILED': 'The file could not be read as audio.',
  'ENGINE.TRUNCATED_INPUT': 'The file is incomplete.',
  'ENGINE.NO_AUDIO_TRACK': 'The video has no sound to work on.',
  'ENGINE.EMPTY_INPUT': 'The file contains no sound.',
  'ENGINE.TOO_SHORT': 'The recording is too short to separate: it needs at least one second of sound.',
  'ENGINE.INVALID_OPTIONS': 'These settings cannot be used on this file.',
  'ENGINE.TOOL_MISSING': 'The service is not set up correctly on our side. Please try again later.',
  'ENGINE.WORKER_FAILED': 'Processing stopped unexpectedly. Please try again.',
  'ENGINE.UNSUPPORTED_FORMAT': 'This format is not supported.',
  'ENGINE.FORMAT_MISMATCH': 'The file is not what its name says.',
  'PROCESSING.UNSUPPORTED_SERVICE': 'This service is not available yet.',
};
