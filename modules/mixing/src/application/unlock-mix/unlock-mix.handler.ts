import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandContexts } from '@kora/kernel/nest';
import { EventStore } from '@kora/kernel';
import { mixStream } from '../../contracts/streams';
import { UnlockMix } from '../../contracts/commands';
import type { MixEvent } from '../../contracts/events';
import { SessionNotFoundError } from '../../domain/errors';
import { sessionDecider } from '../../domain/session';
import { MixCommands } from '../mix-commands';

/** The seam billing unlocks a mix through: true when the session was unlocked now, false when it already was. */
@CommandHandler(UnlockMix)
export class UnlockMixHandler implements ICommandHandler<UnlockMix, boolean> {
  constructor(
    private readonly mixes: MixCommands,
    private readonly store: EventStore,
    private readonly contexts: CommandContexts,
  ) {}

  async execute(command: UnlockMix): Promise<boolean> {
    const events = await this.store.readStream<MixEvent>(mixStream(command.sessionId));
    const state = events.reduce(sessionDecider.evolve, sessionDecider.initialState());
    if (!state.exists || state.ownerId !== command.userId) throw new SessionNotFoundError();
    const result = await this.mixes.execute(
      command.sessionId,
      { type: 'UnlockMix', via: command.via },
      this.contexts.forSystem(command.userId, command.causationId),
    );
    return result.events.length > 0;
  }
}
