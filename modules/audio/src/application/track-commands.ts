import { Injectable } from '@nestjs/common';
import { CommandRunner, EventStore, ProjectionRunner } from '@kora/kernel';
import { trackStream } from '../contracts/streams';
import type { TrackEvent } from '../contracts/events';
import { type TrackCommand, trackDecider, type TrackState } from '../domain/track';

/**
 * Runs a track command on `track-{trackId}` with the kernel's runner, re-deciding on a concurrent write (which every
 * track command allows); by default returns once the track read models show the change.
 */
@Injectable()
export class TrackCommands extends CommandRunner<TrackCommand, TrackEvent, TrackState> {
  constructor(store: EventStore, projections: ProjectionRunner) {
    super(store, projections, {
      stream: trackStream,
      decider: trackDecider,
      retries: 5,
      readModels: ['tracks', 'library'],
    });
  }
}
