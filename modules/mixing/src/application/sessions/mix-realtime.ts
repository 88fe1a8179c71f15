import type { MixSessionStatus, MixStatusMessage } from '@kora/contracts';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type RecordedEvent, streamId } from '@kora/kernel';
import { RealtimeRegistry } from '@kora/kernel/nest';
import type { MixEvent } from '../../contracts/events';

const STATUS: Partial<Record<MixEvent['type'], MixSessionStatus>> = {
  MixRequested: 'PROCESSING',
  MixReady: 'COMPLETED',
  MixFailed: 'FAILED',
  MixCancelled: 'CANCELLED',
  MixUnlocked: 'COMPLETED',
};

/** `mix.status` to the owner's sockets when a mix starts, is ready, fails or is cancelled. */
@Injectable()
export class MixRealtime implements OnModuleInit {
  constructor(private readonly registry: RealtimeRegistry) {}

  onModuleInit(): void {
    this.registry.register(Object.keys(STATUS), (recorded) => {
      const event = recorded as RecordedEvent<MixEvent>;
      return {
        userId: event.metadata.userId,
        channel: 'mix.status',
        payload: {
          sessionId: streamId(event.streamName),
          status: STATUS[event.type]!,
          error: event.type === 'MixFailed' ? event.data.message : null,
          ...(event.type === 'MixUnlocked' ? { unlocked: true } : {}),
        } satisfies MixStatusMessage,
      };
    });
  }
}
