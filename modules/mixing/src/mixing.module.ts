import { Module } from '@nestjs/common';
import { MixCommands } from './application/mix-commands';
import { MixJobs } from './application/mix-jobs';
import { MixRealtime } from './application/mix-realtime';
import { SessionsController } from './application/sessions.controller';
import { UnlockMixHandler } from './application/unlock-mix.handler';

/** Multitrack mixing sessions: tracks and settings, the mix made by the engine's mixer as a background job. */
@Module({
  controllers: [SessionsController],
  providers: [MixCommands, MixJobs, MixRealtime, UnlockMixHandler],
})
export class MixingModule {}
