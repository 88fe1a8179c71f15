import { Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DurableEventPublisher, durableEventIdProvider } from './durable-event-publisher';

/** @nestjs/cqrs with the event bus fed from the durable log. */
@Global()
@Module({
  imports: [CqrsModule.forRoot({ eventIdProvider: durableEventIdProvider })],
  providers: [DurableEventPublisher],
  exports: [CqrsModule, DurableEventPublisher],
})
export class EventBusModule {}
