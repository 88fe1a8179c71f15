import { Inject, Injectable, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { EventBus, type EventIdProvider } from '@nestjs/cqrs';
import { EventStore, type Subscription, toDurable } from '@kora/kernel';
import type { Logger } from 'pino';
import { LOGGER } from '../observability/logger';

/** Lets `@EventsHandler(durable('X'))` and `ofType(durable('X'))` match by the event's persisted type. */
export const durableEventIdProvider: EventIdProvider = {
  getEventId: (eventClass) => (eventClass as unknown as { eventType?: string }).eventType ?? null,
};

/**
 * The only publisher of domain events onto the Nest EventBus: it follows the event store from the head it finds at
 * start, so handlers, sagas and sockets see an event only after it has been durably appended, never an event whose
 * append failed. In a cluster every replica follows the log, so bus handlers must be idempotent or local (sockets).
 */
@Injectable()
export class DurableEventPublisher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private subscription: Subscription | null = null;
  private position = 0;

  constructor(
    private readonly store: EventStore,
    private readonly bus: EventBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Global position of the last event handed to the bus. */
  get publishedPosition(): number {
    return this.position;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.position = await this.store.headPosition();
    this.subscription = this.store.subscribe(
      {
        after: this.position,
        batchSize: 200,
        first: true,
        onError: (error) => this.logger.error({ err: error }, 'event bus subscription failed; retrying'),
      },
      async (events, scannedTo) => {
        for (const event of events) this.bus.publish(toDurable(event));
        this.position = scannedTo;
      },
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }
}
