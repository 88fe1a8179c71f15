import type { TokenSource } from '../../../lib/api';

/** What an upload answered: the track (201) or the server's error body. */
export interface UploadAnswer {
  status: number;
  body: { id?: string; code?: string; message?: string; details?: { limitMb?: number; limitMinutes?: number } } | null;
}

export interface UploadRequest {
  file: File;
  /** Sent before the file, so the server applies the service's size limit early. */
  fields: Record<string, string>;
  /** Other files, sent before the file (mastering's `reference`). */
  extraFiles?: Array<[field: string, file: File]>;
  onProgress(loaded: number, total: number): void;
  signal?: AbortSignal;
}

function send(request: UploadRequest, token: string | null): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/audio/upload');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      let body: UploadAnswer['body'];
      try {
        body = xhr.responseText ? (JSON.parse(xhr.responseText) as UploadAnswer['body']) : null;
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('Upload failed'));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    for (const [name, value] of Object.entries(request.fields)) form.append(name, value);
    for (const [field, extra] of request.extraFiles ?? []) form.append(field, extra, extra.name);
    form.append('file', request.file, request.file.name);
    xhr.send(form);
  });
}

/**
 * Sends a file with XMLHttpRequest (fetch reports no upload progress) and the session's bearer token; a 401 is
 * retried once with a renewed token, as every other call is.
 */
export async function uploadTrack(session: TokenSource, request: UploadRequest): Promise<UploadAnswer> {
  const first = await send(request, await session.getAccessToken().catch(() => null));
  if (first.status !== 401) return first;
  const renewed = await session.getAccessToken({ forceRefresh: true }).catch(() => null);
  if (!renewed) return first;
  return send(request, renewed);
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
