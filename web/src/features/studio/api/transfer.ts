import type { ErrorAnswer, Track, TrackOptions, UploadRefusal, UploadRequest } from '@kora/contracts';
import type { TokenSource } from '../../../lib/api';
import { postNamingUploads, sendResumable, SendRefusedError, type SendProgress } from '../../../lib/resumable-upload';

/**
 * What an upload answered: its status, and the new track (201) or the refusal (the server's error answer, or the
 * file's refusal while it was sent); null when no body could be read.
 */
export interface UploadAnswer {
  status: number;
  body: Track | ErrorAnswer | UploadRefusal | null;
}

/** What `uploadTrack` is given: the file and the job's options, and how to follow (or stop) the sending. */
export interface TrackUpload {
  file: File;
  /** The card's choice, as the upload takes it: the service and its options. */
  fields: TrackOptions;
  /** Mastering's reference track, sent before the file. */
  reference?: File | null;
  onProgress(progress: SendProgress): void;
  signal?: AbortSignal;
}

/** A refusal as the upload's answer (the card shows its message); anything else is thrown. */
function refusedAnswer(error: unknown): UploadAnswer {
  if (error instanceof SendRefusedError) return { status: error.status, body: error.body };
  throw error;
}

/** The file as sent: a WAV compressed to FLAC in a worker when that pays (never changing a sample), else itself. */
async function compressed(request: TrackUpload): Promise<{ file: File; flac: boolean }> {
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
export async function uploadTrack(session: TokenSource, request: TrackUpload): Promise<UploadAnswer> {
  const { service, preset = '' } = request.fields;
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
    const body: UploadRequest = { ...request.fields, upload, ...(reference ? { reference } : {}) };
    return await postNamingUploads<UploadAnswer['body']>(session, '/api/audio/upload', body, request.signal);
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
