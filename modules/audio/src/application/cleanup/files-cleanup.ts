import { Injectable, type OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { AccountPurged } from '@kora/identity/contracts';
import { BlobStore, type RecordedEvent, streamId } from '@kora/kernel';
import { CommandContexts, ProcessorRegistry } from '@kora/kernel/nest';
import { ListTracks, type TrackPage } from '../../contracts/queries';
import { TrackCommands } from '../track-commands';

/**
 * Deletes files once their track is deleted, and deletes every track of a purged account. Both are idempotent:
 * deleting what is already gone changes nothing.
 */
@Injectable()
export class FilesCleanup implements OnModuleInit {
  constructor(
    private readonly registry: ProcessorRegistry,
    private readonly blobs: BlobStore,
    private readonly queries: QueryBus,
    private readonly tracks: TrackCommands,
    private readonly contexts: CommandContexts,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'track-files-cleanup',
      handles: ['TrackDeleted'],
      handle: async (event) => {
        const trackId = streamId(event.streamName);
        // Only the track's own folder: a demo track also lists the shared demo material, which stays.
        await this.blobs.deletePrefix(`tracks/${trackId}`);
      },
    });
    this.registry.register({
      name: 'purged-account-tracks',
      handles: ['AccountPurged'],
      handle: async (event) => this.deleteAll(streamId((event as RecordedEvent<AccountPurged>).streamName), event.id),
    });
  }

  private async deleteAll(userId: string, causationId: string): Promise<void> {
    const context = this.contexts.forSystem(userId, causationId);
    for (const isDemo of [false, true]) {
      for (;;) {
        const page = await this.queries.execute<ListTracks, TrackPage>(new ListTracks({ userId, isDemo }, 1, 100));
        if (page.tracks.length === 0) break;
        for (const track of page.tracks) await this.tracks.execute(track._id, { type: 'DeleteTrack' }, context);
      }
    }
  }
}
