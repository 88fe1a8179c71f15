import { Injectable } from '@nestjs/common';
import { Subject } from 'rxjs';
import type { RecordedEvent } from '../events';

/** A message for one user's sockets, derived from a durable event. */
export interface RealtimeMessage {
  readonly userId: string;
  /** Socket event name, e.g. `track.status`. */
  readonly channel: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** Turns a durable event into the messages its owner's sockets should receive (none for most events). */
export type RealtimeMapper = (event: RecordedEvent) => RealtimeMessage | readonly RealtimeMessage[] | null;

/**
 * Where modules declare what their events look like on the socket. The gateway applies every mapper to live events
 * and to the events a reconnecting client missed, so both paths send exactly the same messages.
 */
@Injectable()
export class RealtimeRegistry {
  private readonly mappers: RealtimeMapper[] = [];
  private readonly types = new Set<string>();
  /** Messages that are not events (job progress): sent to this process's sockets only, never replayed. */
  readonly ephemeral = new Subject<RealtimeMessage>();

  /** Sends a message that is not an event (fine-grained progress) to the user's sockets on this process. */
  publish(message: RealtimeMessage): void {
    this.ephemeral.next(message);
  }

  /** Registers a mapper for the given event types. */
  register(types: readonly string[], mapper: RealtimeMapper): void {
    for (const type of types) this.types.add(type);
    this.mappers.push((event) => (types.includes(event.type) ? mapper(event) : null));
  }

  /** Every event type some mapper handles (replays read only these). */
  get eventTypes(): string[] {
    return [...this.types];
  }

  messagesFor(event: RecordedEvent): RealtimeMessage[] {
    if (!this.types.has(event.type)) return [];
    const messages: RealtimeMessage[] = [];
    for (const mapper of this.mappers) {
      const result = mapper(event);
      if (!result) continue;
      if (Array.isArray(result)) messages.push(...(result as RealtimeMessage[]));
      else messages.push(result as RealtimeMessage);
    }
    return messages;
  }
}
