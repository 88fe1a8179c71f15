import { Injectable } from '@nestjs/common';
import { type CommandContext, EventStore, handleCommand, ProjectionRunner, trackStream } from '@kora/kernel';
import type { TrackEvent } from '../contracts/events';
import { type TrackCommand, trackDecider, type TrackState } from '../domain/track';

const READ_MODELS = ['tracks', 'library'];

/**
 * Runs a track command: load `track-{trackId}`, decide, append with the expected revision (re-deciding on a
 * concurrent write, which every track command allows). `settle` waits until the track read models show the change.
 */
@Injectable()
export class TrackCommands {
  constructor(
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute(
    trackId: string,
    command: TrackCommand,
    context: CommandContext,
    options: { settle?: boolean } = {},
  ): Promise<{ events: TrackEvent[]; state: TrackState; position: number | null }> {
    const result = await handleCommand(this.store, trackStream(trackId), trackDecider, command, context, {
      retries: 5,
    });
    const position = result.append?.position ?? null;
    if (position !== null && options.settle !== false) await this.projections.waitFor(position, 5_000, READ_MODELS);
    return { events: result.events, state: result.state, position };
  }

  async state(trackId: string): Promise<TrackState> {
    const events = await this.store.readStream<TrackEvent>(trackStream(trackId));
    return events.reduce(trackDecider.evolve, trackDecider.initialState());
  }
}
