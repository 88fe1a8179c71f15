import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SocketChannel, SocketMessages } from '@kora/contracts';
import type { Socket } from 'socket.io-client';

export type RealtimeStatus = 'idle' | 'connecting' | 'connected' | 'down';

export interface RealtimeState {
  status: RealtimeStatus;
}

export const realtimeSlice = createSlice({
  name: 'realtime',
  initialState: { status: 'idle' } as RealtimeState,
  reducers: {
    realtimeStatusChanged(state, action: PayloadAction<RealtimeStatus>) {
      state.status = action.payload;
    },
  },
});

export const { realtimeStatusChanged } = realtimeSlice.actions;

type Handler = (payload: unknown) => void;

export interface RealtimeDeps {
  /** A token for the handshake; `forceRefresh` after the server refused or closed the connection. */
  getToken(forceRefresh: boolean): Promise<string | null>;
  /** Opens the socket (socket.io-client's `io`, loaded on demand). */
  connect(options: {
    auth: (callback: (data: object) => void) => void;
    reconnectionDelay: number;
    reconnectionDelayMax: number;
  }): Promise<Socket>;
  onStatus(status: RealtimeStatus): void;
  /** The server ended the session this socket was opened with (a logout or a password reset elsewhere...). */
  onSessionEnded?(): void;
}

/**
 * The Socket.IO feed: same origin, `auth: { token, lastPosition }` on every (re)connection with a fresh token,
 * the highest `position` seen kept for the next one, and a reconnection when the server closes the socket because
 * the token expired or refuses it (socket.io does not retry those by itself).
 */
export class RealtimeClient {
  private socket: Socket | null = null;
  private lastPosition: number | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private forceRefresh = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private running = false;

  constructor(private readonly deps: RealtimeDeps) {}

  get position(): number | null {
    return this.lastPosition;
  }

  /** Calls `handler` with each `event` message (the payload as `@kora/contracts` declares it); answers how to stop. */
  on<K extends SocketChannel>(event: K, handler: (payload: SocketMessages[K]) => void): () => void {
    const set = this.handlers.get(event) ?? new Set<Handler>();
    set.add(handler as Handler);
    this.handlers.set(event, set);
    return () => set.delete(handler as Handler);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.deps.onStatus('connecting');
    const socket = await this.deps.connect({
      auth: (callback) => {
        const force = this.forceRefresh;
        this.forceRefresh = false;
        this.deps.getToken(force).then(
          (token) => callback(this.lastPosition === null ? { token } : { token, lastPosition: this.lastPosition }),
          () => callback({ token: null }),
        );
      },
      reconnectionDelay: 1000,
      reconnectionDelayMax: 10_000,
    });
    if (!this.running) {
      socket.disconnect();
      return;
    }
    this.socket = socket;
    socket.on('connect', () => {
      this.attempts = 0;
      this.deps.onStatus('connected');
    });
    socket.on('session.ended', () => {
      // Said just before the server closes the socket: no reconnection, the session is over.
      this.stop();
      this.deps.onSessionEnded?.();
    });
    socket.on('disconnect', (reason) => {
      if (!this.running) return;
      this.deps.onStatus('down');
      // The server closes the socket when the token expires: come back with a fresh one.
      if (reason === 'io server disconnect') this.retry(true);
    });
    socket.on('connect_error', () => {
      this.deps.onStatus('down');
      // A refused handshake (bad or expired token) is not retried by socket.io itself.
      if (!socket.active) this.retry(true);
    });
    socket.onAny((event: string, payload: unknown) => this.dispatch(event, payload));
    socket.connect();
  }

  stop(): void {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
    this.deps.onStatus('idle');
  }

  /** Delivers a message to its handlers and remembers its position. */
  dispatch(event: string, payload: unknown): void {
    const position = (payload as { position?: unknown } | null)?.position;
    if (typeof position === 'number' && (this.lastPosition === null || position > this.lastPosition)) {
      this.lastPosition = position;
    }
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }

  private retry(forceRefresh: boolean): void {
    if (!this.running || this.retryTimer) return;
    this.forceRefresh = forceRefresh;
    const delay = Math.min(1000 * 2 ** this.attempts, 30_000);
    this.attempts += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.running) this.socket?.connect();
    }, delay);
  }
}
