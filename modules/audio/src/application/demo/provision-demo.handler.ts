import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandContexts } from '@kora/kernel/nest';
import { ProvisionDemoTrack } from '../../contracts/commands';
import { TrackCommands } from '../track-commands';

@CommandHandler(ProvisionDemoTrack)
export class ProvisionDemoTrackHandler implements ICommandHandler<ProvisionDemoTrack, boolean> {
  constructor(
    private readonly tracks: TrackCommands,
    private readonly contexts: CommandContexts,
  ) {}

  /** True when the demo was created now, false when the account already had it. */
  async execute(command: ProvisionDemoTrack): Promise<boolean> {
    const { events } = await this.tracks.execute(
      command.trackId,
      {
        type: 'ProvisionDemo',
        upload: {
          ...command.material,
          trackId: command.trackId,
          ownerId: command.userId,
          service: command.service,
          isDemo: true,
        },
        options: command.options,
        files: command.files,
        stems: command.stems,
      },
      this.contexts.forSystem(command.userId, `demo-${command.trackId}`),
      { settle: false },
    );
    return events.length > 0;
  }
}
