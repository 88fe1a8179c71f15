import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface DiscardLimits {
  /** Bytes of the rest of the body read and thrown away once the answer is decided, at most. */
  readonly bytes: number;
  /** How long the connection stays open once the answer is decided, at most. */
  readonly ms: number;
  /**
   * How long after the answer is written the connection stays open at least (unless the client closes it), reading
   * paused once `bytes` are discarded: the time a client still sending needs to read the answer.
   */
  readonly graceMs: number;
}

/** A few megabytes, a few seconds; and one second for the client to read the answer. */
export const DISCARD_LIMITS: DiscardLimits = { bytes: 4 * 1024 * 1024, ms: 5_000, graceMs: 1_000 };

const closing = new WeakSet<Socket>();

/**
 * For an answer decided before its request's body was read to the end (a refused upload, a 401 or a 507 on an upload
 * route): the answer carries `Connection: close`, what the client still sends is read and thrown away up to
 * `limits.bytes`, and the connection is closed `limits.ms` after this call at the latest, so a client that sends on
 * forever holds nothing. Call it before the answer's headers are written.
 *
 * How it closes matters to the client. Node ends a `Connection: close` exchange with `socket.destroySoon()`: it
 * closes the socket once the answer is written, while the client is still sending, and the kernel answers its next
 * segments with a reset. A client that reads while it sends (curl) has the answer by then, but a browser reads only
 * once its upload stops: the reset must come after the answer has had time to arrive, or it loses the answer (in
 * headless Chromium, a quarter to half of the 200-400 MB uploads refused at 50 MB on loopback failed without a
 * status; none with a second's grace). So the server only half-closes after the answer (the client sees the answer
 * and the end of the stream, and a client that reads them stops sending and closes: the socket then ends by
 * itself), keeps discarding up to `limits.bytes`, then stops reading, and closes the socket at the first of: the
 * client closing its side; `limits.bytes` discarded and `limits.graceMs` past since the answer was written;
 * `limits.ms` after this call. `onClosed` then hears how many bytes of the body were read and thrown away after this
 * call: the server's own count of what such a client cost it (the client's count includes what sat in socket buffers).
 */
export function closeAfterAnswer(
  request: IncomingMessage,
  response: ServerResponse,
  limits: DiscardLimits = DISCARD_LIMITS,
  onClosed?: (discardedBytes: number) => void,
): void {
  const socket = request.socket as Socket | null;
  if (!socket || socket.destroyed || closing.has(socket)) return;
  closing.add(socket);
  if (!response.headersSent) response.setHeader('Connection', 'close');
  const timers: NodeJS.Timeout[] = [];
  const close = (): void => {
    for (const timer of timers) clearTimeout(timer);
    socket.destroy();
  };
  const later = (ms: number): void => {
    const timer = setTimeout(close, Math.max(0, ms));
    timer.unref();
    timers.push(timer);
  };
  later(limits.ms);
  let discarded = 0;
  socket.once('close', () => {
    timers.forEach(clearTimeout);
    onClosed?.(discarded);
  });
  let answeredAt: number | null = null;
  let enough = false;
  const closeAfterGrace = (): void => {
    if (enough && answeredAt !== null) later(answeredAt + limits.graceMs - Date.now());
  };
  response.once('finish', () => {
    answeredAt = Date.now();
    closeAfterGrace();
  });
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (enough || discarded <= limits.bytes) return;
    // Enough: read no more (the client's sending stalls), and close once the answer has had its grace.
    enough = true;
    request.pause();
    closeAfterGrace();
  });
  request.resume();
  // Node calls this once the answer is written: end the sending side only (see above).
  socket.destroySoon = function (this: Socket): void {
    if (this.writable) this.end();
  };
}
