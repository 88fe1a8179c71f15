import { Injectable } from '@nestjs/common';
import { type CommandContext, EventStore, handleCommand, mixStream, ProjectionRunner } from '@kora/kernel';
import type { MixEvent } from '../contracts/events';
import { type SessionCommand, sessionDecider, type SessionState } from '../domain/session';

/** Runs a session command on `mix-{sessionId}`; by default returns once the session read models show it. */
@Injectable()
export class MixCommands {
  constructor(
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute(
    sessionId: string,
    command: SessionCommand,
    context: CommandContext,
    options: { settle?: boolean } = {},
  ): Promise<{ events: MixEvent[]; state: SessionState }> {
    const result = await handleCommand(this.store, mixStream(sessionId), sessionDecider, command, context, {
      retries: 5,
    });
    if (result.append && options.settle !== false) {
      await this.projections.waitFor(result.append.position, 5_000, ['mix-sessions', 'mix-tracks']);
    }
    return { events: result.events, state: result.state };
  }
}
