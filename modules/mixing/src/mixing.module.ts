import { type DynamicModule, Module } from '@nestjs/common';
import { AddTracksController } from './application/add-tracks/add-tracks.controller';
import { CancelMixController } from './application/cancel-mix/cancel-mix.controller';
import { ChangeSettingsController } from './application/change-settings/change-settings.controller';
import { CreateSessionController } from './application/create-session/create-session.controller';
import { GetMixPreviewController } from './application/get-mix-preview/get-mix-preview.controller';
import { GetMixStatusController } from './application/get-mix-status/get-mix-status.controller';
import { GetSessionController } from './application/get-session/get-session.controller';
import { ListSessionsController } from './application/list-sessions/list-sessions.controller';
import { DownloadMixController } from './application/mix-mail/download-mix.controller';
import { MixReadyMailer } from './application/mix-mail/mix-ready-mailer';
import { MixCommands } from './application/mix-commands';
import { MIXING_OPTIONS, type MixingOptions } from './application/mixing-options';
import { RemoveTrackController } from './application/remove-track/remove-track.controller';
import { MixRealtime } from './application/sessions/mix-realtime';
import { SessionReads } from './application/sessions/session-reads';
import { MixJobs } from './application/start-mix/mix-jobs';
import { StartMixController } from './application/start-mix/start-mix.controller';
import { StreamMixController } from './application/stream-mix/stream-mix.controller';
import { UnlockMixHandler } from './application/unlock-mix/unlock-mix.handler';

/** Multitrack mixing sessions: tracks and settings, the mix made by the engine's mixer as a background job. */
@Module({
  // One controller per use case, in the order the routes were first published (the OpenAPI document keeps it).
  controllers: [
    CreateSessionController,
    ListSessionsController,
    GetSessionController,
    AddTracksController,
    ChangeSettingsController,
    RemoveTrackController,
    GetMixStatusController,
    GetMixPreviewController,
    StartMixController,
    CancelMixController,
    StreamMixController,
    DownloadMixController,
  ],
  providers: [MixCommands, SessionReads, MixJobs, MixRealtime, UnlockMixHandler, MixReadyMailer],
})
export class MixingModule {
  static forRoot(options: MixingOptions): DynamicModule {
    return { module: MixingModule, providers: [{ provide: MIXING_OPTIONS, useValue: options }] };
  }
}
