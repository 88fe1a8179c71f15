import { Inject } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import {
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  type OnGatewayInit,
  WebSocketGateway,
  WebSocketServer,
} from '@nestjs/websockets';
import type { SocketMessages } from '@kora/contracts';
import { EventStore, type RecordedEvent } from '@kora/kernel';
import { RealtimeRegistry } from '@kora/kernel/nest';
import type { Logger } from 'pino';
import type { Subscription as RxSubscription } from 'rxjs';
import type { Server, Socket } from 'socket.io';
import { type EndedSessions, RevokedSessions } from '../auth/revoked-sessions';
import { bearerToken, InvalidTokenError, TokenVerifier } from '../auth/token-verifier';
import { DurableEventPublisher } from '../cqrs/durable-event-publisher';
import { LOGGER } from '../observability/logger';
import { Metrics } from '../observability/metrics';

/** How many missed events a reconnecting client may catch up on; further behind, it is told to refetch. */
export const MAX_REPLAY = 500;

export const userRoom = (userId: string): string => `user:${userId}`;

interface SocketData {
  userId: string;
  /** The token's `iat` and `sid`, to end the connection when its session ends. */
  issuedAt: unknown;
  sessionId: unknown;
  expiry?: NodeJS.Timeout;
}

/**
 * Socket.IO, one room per user. The bearer token is checked at the handshake (`auth.token`, or an Authorization
 * header); a client that reconnects with `auth.lastPosition` first receives, in order, the messages it missed, and
 * joins its room only once caught up with what the bus has published, so nothing falls in between. Every message
 * carries the global `position` of its event, which the client keeps for its next reconnection. A token whose
 * session ended is refused, and the connections it opened end when the log says so (logout, password reset, deactivation, purge).
 */
@WebSocketGateway()
export class RealtimeGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  @WebSocketServer() server!: Server;
  private busSubscription: RxSubscription | null = null;
  private stopRevocations: (() => void) | null = null;

  constructor(
    private readonly verifier: TokenVerifier,
    private readonly revoked: RevokedSessions,
    private readonly registry: RealtimeRegistry,
    private readonly bus: EventBus,
    private readonly publisher: DurableEventPublisher,
    private readonly store: EventStore,
    private readonly metrics: Metrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  afterInit(server: Server): void {
    server.use((socket, next) => {
      const token =
        (typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : null) ??
        bearerToken(socket.handshake.headers.authorization);
      if (!token) return next(new Error('Authentication required'));
      this.verifier.verify(token).then(
        (user) => {
          if (this.revoked.isRevoked(user)) return next(new Error('Authentication required'));
          const data = socket.data as SocketData;
          data.userId = user.userId;
          data.issuedAt = user.claims.iat;
          data.sessionId = user.claims.sid;
          if (user.expiresAt !== null) {
            // An expired token ends the connection; the client reconnects with a fresh one.
            data.expiry = setTimeout(() => socket.disconnect(true), Math.max(0, user.expiresAt - Date.now()));
            data.expiry.unref();
          }
          next();
        },
        (error: unknown) => {
          if (!(error instanceof InvalidTokenError)) this.logger.error({ err: error }, 'socket token check failed');
          next(new Error('Authentication required'));
        },
      );
    });
    this.stopRevocations = this.revoked.onEnded((ended) => this.endSessions(ended));
    this.busSubscription = this.bus.subscribe((event) => this.forward(event as RecordedEvent));
    this.busSubscription.add(
      this.registry.ephemeral.subscribe((message) =>
        this.server.local.to(userRoom(message.userId)).emit(message.channel, message.payload),
      ),
    );
  }

  async handleConnection(socket: Socket): Promise<void> {
    this.metrics.socketConnections.inc();
    const { userId } = socket.data as SocketData;
    const raw = socket.handshake.auth?.lastPosition;
    const lastPosition = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
    try {
      if (Number.isInteger(lastPosition) && lastPosition >= 0) await this.replay(socket, userId, lastPosition);
      else await socket.join(userRoom(userId));
    } catch (error) {
      this.logger.error({ err: error }, 'socket replay failed');
      socket.emit('resync', { reason: 'replay-failed' } satisfies SocketMessages['resync']);
      await socket.join(userRoom(userId));
    }
  }

  handleDisconnect(socket: Socket): void {
    this.metrics.socketConnections.dec();
    clearTimeout((socket.data as SocketData).expiry);
  }

  /** Stops forwarding bus events (called on shutdown, before the stores close). */
  stop(): void {
    this.busSubscription?.unsubscribe();
    this.busSubscription = null;
    this.stopRevocations?.();
    this.stopRevocations = null;
  }

  /**
   * Ends this process's connections opened with a token the new cutoff revokes, telling each first
   * (`session.ended`): the page goes to sign-in at once instead of trying to renew a session that no longer exists.
   */
  private endSessions({ userId, tokensIssuedUntilSecond, sessionId }: EndedSessions): void {
    for (const socket of this.server.sockets.sockets.values()) {
      const data = socket.data as SocketData;
      if (data.userId !== userId) continue;
      const revoked = sessionId
        ? data.sessionId === sessionId
        : typeof data.issuedAt !== 'number' || data.issuedAt <= tokensIssuedUntilSecond;
      if (revoked) {
        socket.emit('session.ended', {} satisfies SocketMessages['session.ended']);
        socket.disconnect(true); // engine.io sends what is buffered before it closes
      }
    }
  }

  private forward(event: RecordedEvent): void {
    const rooms = this.server.sockets.adapter.rooms;
    for (const message of this.registry.messagesFor(event)) {
      const room = userRoom(message.userId);
      // Nobody of this user is connected to this process: nothing to encode (most events, under load).
      if (!rooms.has(room)) continue;
      this.server.local.to(room).emit(message.channel, { ...message.payload, position: event.position });
    }
  }

  private async replay(socket: Socket, userId: string, after: number): Promise<void> {
    const types = this.registry.eventTypes;
    let position = after;
    let sent = 0;
    for (;;) {
      const target = this.publisher.publishedPosition;
      while (position < target && types.length > 0) {
        const { events, scannedTo } = await this.store.readAll({ after: position, maxCount: 200, types, userId });
        for (const event of events) {
          if (event.position > target) break;
          for (const message of this.registry.messagesFor(event)) {
            if (message.userId !== userId) continue;
            if (++sent > MAX_REPLAY) {
              socket.emit('resync', { reason: 'too-far-behind' } satisfies SocketMessages['resync']);
              await socket.join(userRoom(userId));
              return;
            }
            socket.emit(message.channel, { ...message.payload, position: event.position });
          }
        }
        position = Math.min(scannedTo, target);
        if (events.length === 0 && scannedTo <= position) break;
      }
      // No await between this check and the join: nothing can be published in between.
      if (this.publisher.publishedPosition === target) {
        socket.join(userRoom(userId));
        return;
      }
    }
  }
}
