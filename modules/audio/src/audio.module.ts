import { type DynamicModule, Module } from '@nestjs/common';
import { AUDIO_OPTIONS, type AudioOptions } from './application/audio-options';
import { FilesCleanup } from './application/cleanup/files-cleanup';
import { ProvisionDemoTrackHandler } from './application/demo/provision-demo.handler';
import { SendEmailController } from './application/email/send-email';
import { TrackJobHandler } from './application/jobs/track-job-handler';
import { TrackJobs } from './application/jobs/track-jobs';
import { TrackCommands } from './application/track-commands';
import { TracksController } from './application/tracks/tracks.controller';
import { TrackRealtime } from './application/tracks/track-realtime';
import { UnlockTrackHandler } from './application/unlock/unlock-track.handler';
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
      controllers: [TracksController, SendEmailController],
      providers: [
        { provide: AUDIO_OPTIONS, useValue: options },
        TrackCommands,
        UploadService,
        TrackJobs,
        TrackJobHandler,
        FilesCleanup,
        TrackRealtime,
        ProvisionDemoTrackHandler,
        UnlockTrackHandler,
      ],
      exports: [TrackCommands],
    };
  }
}
