import { errorKey, errorKeyFor } from '../../../lib/error-codes';
import type { UploadAnswer } from '../api/transfer';

/** How an upload refusal is shown: next to the file (size and format, spec §5) or as the banner above the card. */
export interface UploadMessage {
  place: 'file' | 'banner';
  /** A key of the `studio` namespace. */
  key: string;
  limitMb?: number;
  /** The service's longest recording, for `UPLOAD.TOO_LONG`. */
  limitMinutes?: number;
}

/** The message for a refused upload (the spec's catalogue, §8): 503 is "temporarily unavailable". */
export function uploadMessage(answer: UploadAnswer | null): UploadMessage {
  if (!answer) return { place: 'banner', key: 'upload.errors.failed' };
  const refusal = answer.body && 'code' in answer.body ? answer.body : null;
  const code = refusal?.code;
  const fileKey = errorKeyFor('uploadFile', code);
  if (fileKey) {
    const { limitMb, limitMinutes }: Record<string, unknown> = refusal?.details ?? {};
    return {
      place: 'file',
      key: fileKey,
      ...(typeof limitMb === 'number' ? { limitMb } : {}),
      ...(typeof limitMinutes === 'number' ? { limitMinutes } : {}),
    };
  }
  if (answer.status === 503) return { place: 'banner', key: 'errors.unavailable' };
  return { place: 'banner', key: errorKey('uploadBanner', code, 'errors.processingFailed') };
}

/** A failed job's message: the failure codes the client knows how to say, else the generic message. */
export function failureKey(errorCode: string | null | undefined): string {
  return errorKey('jobFailure', errorCode, 'errors.processingFailedRetry');
}
