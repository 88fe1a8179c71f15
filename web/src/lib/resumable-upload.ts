import { type ErrorAnswer, isErrorAnswer, type UploadRefusal } from '@kora/contracts';
import { Upload, type DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';
import type { TokenSource } from './api';

/**
 * Sending a file by the tus protocol (`/api/uploads`, docs/api.md "Resumable uploads"): the file goes up in as many
 * requests as the network needs, each going on from the last byte the server has. A dropped connection, a switch of
 * network or a reload (the same file chosen again) costs only the bytes in flight. While the browser is offline the
 * upload waits and goes on by itself when the network returns.
 */

/** What the upload is doing: compressing (a WAV to FLAC, before sending), sending, or waiting for the network. */
export type SendPhase = 'compressing' | 'sending' | 'paused';

export interface SendProgress {
  phase: SendPhase;
  /** Bytes of this phase done (read while compressing, sent while sending) and their total. */
  done: number;
  total: number;
  /** Measured over the last seconds while sending; null until known. */
  bytesPerSecond: number | null;
  remainingMs: number | null;
}

/** A refusal the server answered (its status and error body), as opposed to a network that never came back. */
export class SendRefusedError extends Error {
  constructor(
    readonly status: number,
    /** The error answer of a refused request, or the `Upload-Refusal` header of a HEAD; null when none was readable. */
    readonly body: ErrorAnswer | UploadRefusal | null,
  ) {
    super(body && 'message' in body ? body.message : `Refused (${status})`);
  }
}

export interface SendOptions {
  /** What the file is for: `purpose` (track, reference), `service`, `preset`, `filename`, `encoding`. */
  metadata: Record<string, string>;
  /** Identifies the file across reloads (the original file's, when a compressed copy is sent). */
  fingerprint: string;
  onProgress(progress: SendProgress): void;
  signal?: AbortSignal;
  /** How long the upload waits for a network that does not come back before giving up, ms (10 minutes). */
  giveUpAfterMs?: number;
}

const ENDPOINT = '/api/uploads';
/** Retries of a failed request before the upload waits for the network: quick ones, then the wait below. */
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000];
/** While offline or failing, how often it tries again anyway (the `online` event is not always fired). */
const WAIT_STEP_MS = 5_000;

/** Speed over a sliding window of the last seconds, and the time left at that speed. */
export class RateMeter {
  private readonly samples: Array<{ at: number; bytes: number }> = [];
  constructor(private readonly windowMs = 8_000) {}

  add(at: number, bytes: number): void {
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[0]!.at > this.windowMs) this.samples.shift();
  }

  /** Forgets the window (after a pause: the speed before it says nothing of the network after it). */
  reset(): void {
    this.samples.length = 0;
  }

  bytesPerSecond(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < 1_000) return null;
    return ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
  }

  remainingMs(total: number): number | null {
    const rate = this.bytesPerSecond();
    const last = this.samples.at(-1);
    if (!rate || !last || rate <= 0) return null;
    return ((total - last.bytes) * 1000) / rate;
  }
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Resolves when the browser says it is online again, or after `ms`, or when `signal` aborts. */
function waitForNetwork(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
    signal?.addEventListener('abort', done);
  });
}

/** Whether an `Upload-Refusal` header read as one: a code, and maybe details. */
const isRefusal = (given: unknown): given is UploadRefusal =>
  typeof given === 'object' && given !== null && typeof (given as UploadRefusal).code === 'string';

/** The server's answer to a refused request, if the error carries one. */
function refusal(error: Error): SendRefusedError | null {
  const response = (error as DetailedError).originalResponse;
  const status = response?.getStatus() ?? 0;
  if (status < 400 || status >= 500 || status === 409 || status === 423 || status === 401) return null;
  let body: unknown;
  try {
    body = JSON.parse(response!.getBody());
  } catch {
    body = null;
  }
  return new SendRefusedError(status, isErrorAnswer(body) ? body : null);
}

/**
 * Sends `file` and resolves with its upload id (for `POST /api/audio/upload`), or rejects with a `SendRefusedError`
 * (the server refused it: too large, not audio, ...), an `AbortError`, or an Error once the network has been gone for
 * `giveUpAfterMs` (the bytes stay on the server for a day: choosing the same file again goes on from them).
 */
export function sendResumable(session: TokenSource, file: File, options: SendOptions): Promise<string> {
  const { signal, onProgress } = options;
  const giveUpAfterMs = options.giveUpAfterMs ?? 10 * 60_000;
  const meter = new RateMeter();
  let renew = false;
  /**
   * A refusal learnt by asking for the upload again: the browser reads an answer only once its body is sent, so a
   * refusal by the file's first bytes usually arrives as a reset connection (docs/api.md, "Resumable uploads").
   */
  let refusedBy: SendRefusedError | null = null;
  return new Promise<string>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Upload aborted', 'AbortError'));
      return;
    }
    let settled = false;
    let lastProgressAt = Date.now();
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const upload = new Upload(file, {
      endpoint: new URL(ENDPOINT, window.location.href).href,
      metadata: options.metadata,
      retryDelays: RETRY_DELAYS,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      fingerprint: () => Promise.resolve(options.fingerprint),
      onBeforeRequest: async (request: HttpRequest) => {
        const token = await session.getAccessToken(renew ? { forceRefresh: true } : undefined).catch(() => null);
        renew = false;
        if (token) request.setHeader('Authorization', `Bearer ${token}`);
        // Refused: no new upload of the same file.
        if (refusedBy && request.getMethod() === 'POST') throw refusedBy;
      },
      onAfterResponse: (request: HttpRequest, response: HttpResponse) => {
        const refusal = request.getMethod() === 'HEAD' ? response.getHeader('Upload-Refusal') : undefined;
        if (!refusal) return;
        try {
          const given = JSON.parse(decodeURIComponent(refusal)) as unknown;
          refusedBy = new SendRefusedError(response.getStatus(), isRefusal(given) ? given : null);
        } catch {
          refusedBy = new SendRefusedError(response.getStatus(), null);
        }
      },
      onShouldRetry: (error, attempt, retryOptions) => {
        if (refusedBy) return false;
        const status = error.originalResponse?.getStatus() ?? 0;
        // An expired token: renewed before the next try.
        if (status === 401 && attempt < 2) {
          renew = true;
          return true;
        }
        if (status >= 400 && status < 500 && status !== 409 && status !== 423) return false;
        return attempt < (retryOptions.retryDelays?.length ?? 0) && !isOffline();
      },
      onProgress: (sent, total) => {
        lastProgressAt = Date.now();
        meter.add(lastProgressAt, sent);
        onProgress({
          phase: 'sending',
          done: sent,
          total,
          bytesPerSecond: meter.bytesPerSecond(),
          remainingMs: meter.remainingMs(total),
        });
      },
      onSuccess: () => settle(() => resolve(upload.url!.split('/').pop()!)),
      onError: (error) => {
        const refused = refusedBy ?? refusal(error);
        if (refused) {
          settle(() => reject(refused));
          return;
        }
        // The network is gone (or the server unreachable): wait for it, then go on from the server's offset.
        if (Date.now() - lastProgressAt > giveUpAfterMs) {
          settle(() => reject(error));
          return;
        }
        meter.reset();
        onProgress({ phase: 'paused', done: 0, total: file.size, bytesPerSecond: null, remainingMs: null });
        void waitForNetwork(isOffline() ? giveUpAfterMs : WAIT_STEP_MS, signal).then(() => {
          if (!settled && !signal?.aborted) upload.start();
        });
      },
    });
    const onAbort = () => {
      // Given up by the user: the server's copy goes too.
      void upload.abort(true).catch(() => undefined);
      settle(() => reject(new DOMException('Upload aborted', 'AbortError')));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // A file sent before (a reload, a dropped page) goes on from the server's offset.
    void upload.findPreviousUploads().then(
      (previous) => {
        if (settled) return;
        const newest = [...previous].sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (newest) upload.resumeFromPreviousUpload(newest);
        upload.start();
      },
      () => upload.start(),
    );
  });
}

/**
 * After the files are sent: a JSON `POST` naming them (the job, the mix's tracks), with the bearer token, retried once
 * with a renewed token on 401. Resolves with the status and the parsed answer (null when it is not JSON).
 */
export async function postNamingUploads<T>(
  session: TokenSource,
  url: string,
  payload: unknown,
  signal?: AbortSignal,
): Promise<{ status: number; body: T | null }> {
  const body = JSON.stringify(payload);
  const post = async (forceRefresh: boolean) => {
    const token = await session.getAccessToken(forceRefresh ? { forceRefresh } : undefined).catch(() => null);
    return fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body,
      signal,
    });
  };
  let response = await post(false);
  if (response.status === 401) response = await post(true);
  const text = await response.text();
  try {
    return { status: response.status, body: text ? (JSON.parse(text) as T) : null };
  } catch {
    return { status: response.status, body: null };
  }
}
