import type { UploadAnswer } from './api/transfer';

/** How an upload refusal is shown: next to the file (size and format, spec §5) or as the banner above the card. */
export interface UploadMessage {
  place: 'file' | 'banner';
  /** A key of the `studio` namespace. */
  key: string;
  limitMb?: number;
}

const FILE_CODES: Record<string, string> = {
  'upload.fileSizeMin': 'upload.errors.fileSizeMin',
  'upload.fileSizeMax': 'upload.errors.fileSizeMax',
  'upload.audioFormat': 'upload.errors.audioFormat',
  'upload.invalidVideoFormat': 'upload.errors.invalidVideoFormat',
  'upload.noAudioTrack': 'upload.errors.noAudioTrack',
  'upload.fileRequired': 'upload.errors.fileRequired',
};

const BANNER_CODES: Record<string, string> = {
  'services.errors.alreadyProcessing': 'errors.alreadyProcessing',
  'upload.invalidService': 'upload.errors.invalidChoice',
  'upload.invalidPreset': 'upload.errors.invalidChoice',
  'upload.invalidMode': 'upload.errors.invalidChoice',
  'upload.invalidIntensity': 'upload.errors.invalidChoice',
  'upload.invalidTarget': 'upload.errors.invalidChoice',
  'upload.invalidReference': 'upload.errors.referenceFormat',
  'upload.tooManyFiles': 'upload.errors.invalidChoice',
  'STORAGE.FULL': 'errors.unavailable',
};

/** The message for a refused upload (the spec's catalogue, §8): 503 is "temporarily unavailable". */
export function uploadMessage(answer: UploadAnswer | null): UploadMessage {
  if (!answer) return { place: 'banner', key: 'upload.errors.failed' };
  const code = answer.body?.code ?? '';
  const fileKey = FILE_CODES[code];
  if (fileKey) {
    const limitMb = answer.body?.details?.limitMb;
    return typeof limitMb === 'number' ? { place: 'file', key: fileKey, limitMb } : { place: 'file', key: fileKey };
  }
  if (answer.status === 503) return { place: 'banner', key: 'errors.unavailable' };
  return { place: 'banner', key: BANNER_CODES[code] ?? 'errors.processingFailed' };
}

/** Failure codes of a job the client knows how to say (else the generic message). */
const FAILURES = new Set([
  'ENGINE.DECODE_FAILED',
  'ENGINE.TRUNCATED_INPUT',
  'ENGINE.NO_AUDIO_TRACK',
  'ENGINE.EMPTY_INPUT',
  'ENGINE.TOO_SHORT',
  'ENGINE.INVALID_OPTIONS',
  'ENGINE.WORKER_FAILED',
  'ENGINE.UNSUPPORTED_FORMAT',
  'ENGINE.FORMAT_MISMATCH',
]);

export function failureKey(errorCode: string | null | undefined): string {
  return errorCode && FAILURES.has(errorCode)
    ? `failures.${errorCode.replace('ENGINE.', '')}`
    : 'errors.processingFailedRetry';
}
