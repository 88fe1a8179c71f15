import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, type CommandContext, IDS, type IdGenerator } from '../context';
import { requestContext } from '../request-context';

/** Builds the envelope facts of a command from the current request (or job) and the injected clock and ids. */
@Injectable()
export class CommandContexts {
  constructor(
    @Inject(CLOCK) readonly clock: Clock,
    @Inject(IDS) readonly ids: IdGenerator,
  ) {}

  /** A command a signed-in user asked for. */
  forUser(userId: string): CommandContext {
    const correlationId = requestContext.current()?.correlationId ?? this.ids.newId();
    return { userId, correlationId, causationId: correlationId, clock: this.clock, ids: this.ids };
  }

  /** A command the system decided on its own (a schedule, a saga), on behalf of `userId`. */
  forSystem(userId: string, causationId: string): CommandContext {
    return { userId, correlationId: causationId, causationId, clock: this.clock, ids: this.ids };
  }
}
