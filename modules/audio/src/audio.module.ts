import { type DynamicModule, Module } from '@nestjs/common';
import { AUDIO_OPTIONS, type AudioOptions } from './application/audio-options';
import { CancelProcessingController } from './application/cancel-processing/cancel-processing.controller';
import { FilesCleanup } from './application/cleanup/files-cleanup';
import { ProvisionDemoTrackHandler } from './application/demo/provision-demo.handler';
import { DeleteTrackController } from './application/delete-track/delete-track.controller';
import { TrackReadyMailer } from './application/email/ready-mailer';
import { SendEmailController } from './application/email/send-email';
import { GetTrackController } from './application/get-track/get-track.controller';
import { GetTrackStatusController } from './application/get-track-status/get-track-status.controller';
import { TrackJobs } from './application/jobs/track-jobs';
import { ListLibraryController } from './application/list-library/list-library.controller';
import { ListTracksController } from './application/list-tracks/list-tracks.controller';
import { ReprocessTrackController } from './application/reprocess-track/reprocess-track.controller';
import { StreamTrackController } from './application/stream-track/stream-track.controller';
import { TrackCommands } from './application/track-commands';
import { OwnedTracks } from './application/tracks/owned-tracks';
import { TrackRealtime } from './application/tracks/track-realtime';
import { UnlockTrackHandler } from './application/unlock/unlock-track.handler';
import { UploadController } from './application/upload/upload.controller';
import { UploadService } from './application/upload/upload.service';

/**
 * Tracks and their processing: upload checked by content, the job queue and the workers that run the engine,
 * status, streams, deletion and e-mail delivery.
 */
@Module({})
export class AudioModule {
  static forRoot(options: AudioOptions): DynamicModule {
    return {
      module: AudioModule,
      // One controller per use case, in the order the routes were first published (the OpenAPI document keeps it).
      controllers: [
        UploadController,
        ListTracksController,
        ListLibraryController,
        ReprocessTrackController,
        GetTrackController,
        GetTrackStatusController,
        CancelProcessingController,
        DeleteTrackController,
        StreamTrackController,
        SendEmailController,
      ],
      providers: [
        { provide: AUDIO_OPTIONS, useValue: options },
        TrackCommands,
        OwnedTracks,
        UploadService,
        TrackJobs,
        FilesCleanup,
        TrackRealtime,
        ProvisionDemoTrackHandler,
        UnlockTrackHandler,
        TrackReadyMailer,
      ],
      exports: [TrackCommands],
    };
  }
}
