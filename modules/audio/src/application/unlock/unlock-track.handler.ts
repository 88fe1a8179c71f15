import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandContexts } from '@kora/kernel/nest';
import { UnlockTrack } from '../../contracts/commands';
import { TrackNotFoundError } from '../../domain/errors';
import { TrackCommands } from '../track-commands';

/** The seam billing unlocks through: true when the track was unlocked now, false when it already was. */
@CommandHandler(UnlockTrack)
export class UnlockTrackHandler implements ICommandHandler<UnlockTrack, boolean> {
  constructor(
    private readonly tracks: TrackCommands,
    private readonly contexts: CommandContexts,
  ) {}

  async execute(command: UnlockTrack): Promise<boolean> {
    const state = await this.tracks.state(command.trackId);
    if (!state.exists || state.deleted || state.ownerId !== command.userId) throw new TrackNotFoundError();
    const { events } = await this.tracks.execute(
      command.trackId,
      { type: 'UnlockTrack', via: command.via },
      this.contexts.forSystem(command.userId, command.causationId),
    );
    return events.length > 0;
  }
}
