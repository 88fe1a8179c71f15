import type { TokenSource } from '../../../lib/api';
import { postNamingUploads, sendResumable, SendRefusedError, type SendProgress } from '../../../lib/resumable-upload';

/** What an upload answered: the track (201) or the server's error body. */
export interface UploadAnswer {
  status: number;
  body: { id?: string; code?: string; message?: string; details?: { limitMb?: number; limitMinutes?: number } } | null;
}

export interface UploadRequest {
  file: File;
  /** The form's choice: service, preset, mode, intensity, target. */
  fields: Record<string, string>;
  /** Mastering's reference track, sent before the file. */
  reference?: File | null;
  onProgress(progress: SendProgress): void;
  signal?: AbortSignal;
}

/** A refusal as the upload's answer (the card shows its message); anything else is thrown. */
function refusedAnswer(error: unknown): UploadAnswer {
  if (error instanceof SendRefusedError) return { status: error.status, body: error.body as UploadAnswer['body'] };
  throw error;
}

/** The file as sent: a WAV compressed to FLAC in a worker when that pays (never changing a sample), else itself. */
async function compressed(request: UploadRequest): Promise<{ file: File; flac: boolean }> {
  const { compressForUpload } = await import('../../../lib/flac/compressForUpload');
  const result = await compressForUpload(request.file, {
    signal: request.signal,
    onProgress: ({ readBytes, totalBytes }) =>
      request.onProgress({
        phase: 'compressing',
        done: readBytes,
        total: totalBytes,
        bytesPerSecond: null,
        remainingMs: null,
      }),
  });
  return { file: result.file, flac: result.compressed };
}

/**
 * Uploads a file for a service: compressed without loss where that pays, sent by the resumable protocol (the
 * reference first, for mastering), then the job asked for by `POST /api/audio/upload` naming the uploads. A refusal
 * at any step is the answer; a network gone for good, or an abort, is thrown.
 */
export async function uploadTrack(session: TokenSource, request: UploadRequest): Promise<UploadAnswer> {
  const { service = '', preset = '' } = request.fields;
  const fingerprint = (file: File, purpose: string, encoding: string) =>
    ['kora', purpose, service, preset, encoding, file.name, file.size, file.lastModified].join(':');
  try {
    let reference: string | null = null;
    if (request.reference) {
      reference = await sendResumable(session, request.reference, {
        metadata: { purpose: 'reference', filename: request.reference.name },
        fingerprint: fingerprint(request.reference, 'reference', 'raw'),
        onProgress: request.onProgress,
        signal: request.signal,
      });
    }
    const sent = await compressed(request);
    const upload = await sendResumable(session, sent.file, {
      metadata: {
        purpose: 'track',
        service,
        ...(preset ? { preset } : {}),
        filename: request.file.name,
        ...(sent.flac ? { encoding: 'flac' } : {}),
      },
      fingerprint: fingerprint(request.file, 'track', sent.flac ? 'flac' : 'raw'),
      onProgress: request.onProgress,
      signal: request.signal,
    });
    return await postNamingUploads<UploadAnswer['body']>(
      session,
      '/api/audio/upload',
      { ...request.fields, upload, ...(reference ? { reference } : {}) },
      request.signal,
    );
  } catch (error) {
    return refusedAnswer(error);
  }
}

/** A stream (`/api/audio/track/{id}/stream/{type}`) as a blob, with the bearer token (waveforms need blobs). */
export async function fetchAudio(session: TokenSource, url: string, signal?: AbortSignal): Promise<Blob> {
  const get = async (forceRefresh: boolean) => {
    const token = await session.getAccessToken({ forceRefresh }).catch(() => null);
    return fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal });
  };
  let response = await get(false);
  if (response.status === 401) response = await get(true);
  if (!response.ok) throw new Error(`Failed to load track (${response.status})`);
  return response.blob();
}
