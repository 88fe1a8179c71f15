import { Injectable } from '@nestjs/common';
import { CommandRunner, EventStore, ProjectionRunner } from '@kora/kernel';
import { mixStream } from '../contracts/streams';
import type { MixEvent } from '../contracts/events';
import { type SessionCommand, sessionDecider, type SessionState } from '../domain/session';

/** Runs a session command on `mix-{sessionId}`; by default returns once the session read models show it. */
@Injectable()
export class MixCommands extends CommandRunner<SessionCommand, MixEvent, SessionState> {
  constructor(store: EventStore, projections: ProjectionRunner) {
    super(store, projections, {
      stream: mixStream,
      decider: sessionDecider,
      retries: 5,
      readModels: ['mix-sessions', 'mix-tracks'],
    });
  }
}
