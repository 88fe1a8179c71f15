import { describe, it } from '@jest/globals';
import { DeciderSpecification } from '@kora/kernel/testing';
import type { PreviewReady, ProcessingRequested, TrackEvent, TrackUploaded } from '../contracts/events';
import { NotProcessingError, ResultNotReadyError, StaleJobError, TrackNotFoundError } from './errors';
import { MAX_ATTEMPTS, type TrackCommand, trackDecider } from './track';

const given = DeciderSpecification.for(trackDecider);

const upload = (overrides: Partial<TrackUploaded['data']> = {}): TrackUploaded['data'] => ({
  trackId: 't1',
  ownerId: 'u1',
  service: 'AI_MASTERING',
  filename: 'song.wav',
  format: 'wav',
  contentType: 'audio/wav',
  fileSize: 2_000_000,
  durationSec: 12,
  sampleRate: 44_100,
  channels: 2,
  isVideo: false,
  isDemo: false,
  originalKey: 'tracks/t1/original',
  ...overrides,
});

const uploaded = (data = upload()): TrackUploaded => ({ type: 'TrackUploaded', data });
const requested = (
  service: TrackUploaded['data']['service'] = 'AI_MASTERING',
  data: TrackUploaded['data'] = upload({ service }),
): ProcessingRequested => ({
  type: 'ProcessingRequested',
  data: { jobId: 'j1', service, options: { preset: null, mode: null }, upload: data },
});
const started = (attempt: number): TrackEvent => ({
  type: 'ProcessingStarted',
  data: { jobId: 'j1', workerId: 'w', attempt },
});
const previewReady = (service: TrackUploaded['data']['service'] = 'AI_MASTERING'): PreviewReady => ({
  type: 'PreviewReady',
  data: {
    jobId: 'j1',
    service,
    files: { preview: 'tracks/t1/preview.mp3' },
    processingSeconds: 2,
    durationSec: 12,
    before: null,
    after: null,
  },
});
/** A mastering track whose job is under way. */
const processing: TrackEvent[] = [uploaded(), requested()];
/** A mastering track whose locked preview is ready. */
const previewed: TrackEvent[] = [...processing, previewReady()];

const uploadTrack = (data = upload()): TrackCommand => ({
  type: 'UploadTrack',
  upload: data,
  jobId: 'j1',
  options: { preset: null, mode: null },
});
const start: TrackCommand = { type: 'StartProcessing', jobId: 'j1', workerId: 'w' };
const complete: TrackCommand = {
  type: 'CompleteProcessing',
  jobId: 'j1',
  files: { preview: 'tracks/t1/preview.mp3' },
  stems: null,
  processingSeconds: 2,
  durationSec: 12,
  before: null,
  after: null,
};
const provision: TrackCommand = {
  type: 'ProvisionDemo',
  upload: upload({ isDemo: true, originalKey: 'demo/v1/mastering/original' }),
  options: { preset: null, mode: null },
  files: { preview: 'demo/v1/mastering/preview', master: 'demo/v1/mastering/master' },
  stems: null,
};

describe('uploading a track', () => {
  it('records the upload and asks for processing', () => {
    given([]).when(uploadTrack()).then([uploaded(), requested()]);
  });

  it('shows the track as processing once the job is asked for', () => {
    given(processing).thenState({ status: 'PROCESSING', jobId: 'j1', attempt: 0 });
  });

  it('ignores a retried upload with the same id', () => {
    given(processing).when(uploadTrack()).thenNothingHappened();
  });

  it('unlocks an uploaded demo track at once', () => {
    const demo = upload({ isDemo: true });
    given([])
      .when(uploadTrack(demo))
      .then([uploaded(demo), requested('AI_MASTERING', demo), { type: 'TrackUnlocked', data: { via: 'demo' } }]);
  });
});

describe('provisioning a demo track', () => {
  const demoUpload = upload({ isDemo: true, originalKey: 'demo/v1/mastering/original' });
  const demoFiles = { preview: 'demo/v1/mastering/preview', master: 'demo/v1/mastering/master' };
  const provisioned: TrackEvent[] = [
    { type: 'TrackUploaded', data: demoUpload },
    {
      type: 'PreviewReady',
      data: {
        jobId: 'demo-t1',
        service: 'AI_MASTERING',
        files: demoFiles,
        processingSeconds: 0,
        durationSec: 12,
        before: null,
        after: null,
      },
    },
    { type: 'TrackUnlocked', data: { via: 'demo' } },
  ];

  it('records it processed and unlocked', () => {
    given([]).when(provision).then(provisioned);
  });

  it('gives stems for a stems demo', () => {
    const stemsUpload = upload({ isDemo: true, service: 'STEM_SEPARATION' });
    given([])
      .when({ ...provision, upload: stemsUpload, files: demoFiles, stems: ['vocals', 'accompaniment'] })
      .then([
        { type: 'TrackUploaded', data: stemsUpload },
        {
          type: 'StemsReady',
          data: {
            jobId: 'demo-t1',
            service: 'STEM_SEPARATION',
            files: demoFiles,
            stems: ['vocals', 'accompaniment'],
            processingSeconds: 0,
            durationSec: 12,
          },
        },
        { type: 'TrackUnlocked', data: { via: 'demo' } },
      ]);
  });

  it('leaves the demo with its master ready, unlocked', () => {
    given(provisioned).thenState({ status: 'MASTER_READY', unlocked: true, isDemo: true, resultReady: true });
  });

  it('provisions once: processors deliver at least once', () => {
    given(provisioned).when(provision).thenNothingHappened();
  });

  it('has no job to cancel', () => {
    given(provisioned).when({ type: 'CancelProcessing' }).thenThrows(NotProcessingError);
  });
});

describe('starting a job', () => {
  it('counts the first attempt', () => {
    given(processing)
      .when(start)
      .then([started(1)]);
  });

  it('counts each attempt a lost worker left behind', () => {
    given([...processing, started(1), started(2), started(3)]).thenState({ attempt: MAX_ATTEMPTS });
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts whose worker disappeared`, () => {
    given([...processing, started(1), started(2), started(3)])
      .when(start)
      .then([
        {
          type: 'ProcessingFailed',
          data: {
            jobId: 'j1',
            code: 'PROCESSING.WORKER_LOST',
            message: 'Processing stopped three times; please try again.',
          },
        },
      ]);
  });

  it('refuses a job the track does not run', () => {
    given(processing)
      .when({ ...start, jobId: 'other' })
      .thenThrows(StaleJobError);
  });

  it('refuses a job on a track that does not exist', () => {
    given([]).when(start).thenThrows(TrackNotFoundError);
  });
});

describe('recording progress', () => {
  it('records a new step', () => {
    given(processing)
      .when({ type: 'RecordProgress', jobId: 'j1', status: 'ANALYZING', progress: 0.2 })
      .then([{ type: 'ProcessingProgressed', data: { jobId: 'j1', status: 'ANALYZING', progress: 0.2 } }]);
  });

  it('shows the step as the status', () => {
    given([
      ...processing,
      { type: 'ProcessingProgressed', data: { jobId: 'j1', status: 'ANALYZING', progress: 0.2 } },
    ]).thenState({ status: 'ANALYZING' });
  });

  it('ignores progress within the same step', () => {
    given([...processing, { type: 'ProcessingProgressed', data: { jobId: 'j1', status: 'ANALYZING', progress: 0.2 } }])
      .when({ type: 'RecordProgress', jobId: 'j1', status: 'ANALYZING', progress: 0.3 })
      .thenNothingHappened();
  });

  it('refuses progress from a stale job', () => {
    given(previewed)
      .when({ type: 'RecordProgress', jobId: 'j1', status: 'FINALIZING', progress: 0.9 })
      .thenThrows('TRACKS.STALE_JOB');
  });
});

describe('completing a job', () => {
  it('gives a mastering track its locked preview', () => {
    given(processing).when(complete).then([previewReady()]);
    given(previewed).thenState({ status: 'PREVIEW_READY', resultReady: true });
  });

  it('ends stem separation at STEMS_READY', () => {
    const stems = upload({ service: 'STEM_SEPARATION' });
    given([uploaded(stems), requested('STEM_SEPARATION')])
      .when({ ...complete, stems: ['vocals', 'accompaniment'] })
      .then([
        {
          type: 'StemsReady',
          data: {
            jobId: 'j1',
            service: 'STEM_SEPARATION',
            files: { preview: 'tracks/t1/preview.mp3' },
            stems: ['vocals', 'accompaniment'],
            processingSeconds: 2,
            durationSec: 12,
          },
        },
      ]);
    given([
      uploaded(stems),
      requested('STEM_SEPARATION'),
      { type: 'StemsReady', data: { ...previewReady('STEM_SEPARATION').data, stems: ['vocals'] } },
    ]).thenState({ status: 'STEMS_READY' });
  });

  it('ends enhancement at PREVIEW_READY', () => {
    const enhancement = upload({ service: 'AUDIO_ENHANCEMENT' });
    given([uploaded(enhancement), requested('AUDIO_ENHANCEMENT'), previewReady('AUDIO_ENHANCEMENT')]).thenState({
      status: 'PREVIEW_READY',
    });
  });

  it('ends an unlocked demo enhancement at MASTER_READY', () => {
    const demo = upload({ isDemo: true, service: 'AUDIO_ENHANCEMENT' });
    given([
      uploaded(demo),
      requested('AUDIO_ENHANCEMENT'),
      { type: 'TrackUnlocked', data: { via: 'demo' } },
      previewReady('AUDIO_ENHANCEMENT'),
    ]).thenState({ status: 'MASTER_READY' });
  });

  it('refuses a result from a job of another id', () => {
    given(processing)
      .when({ ...complete, jobId: 'other' })
      .thenThrows('TRACKS.STALE_JOB');
  });

  it('refuses a result once the job was cancelled', () => {
    given([...processing, { type: 'ProcessingCancelled', data: { jobId: 'j1' } }])
      .when(complete)
      .thenThrows('TRACKS.STALE_JOB');
  });
});

describe('failing a job', () => {
  it('records the failure with its code', () => {
    given(processing)
      .when({ type: 'FailProcessing', jobId: 'j1', code: 'ENGINE.TOO_SHORT', message: 'Too short' })
      .then([{ type: 'ProcessingFailed', data: { jobId: 'j1', code: 'ENGINE.TOO_SHORT', message: 'Too short' } }]);
  });

  it('refuses a failure from a job already finished', () => {
    given(previewed)
      .when({ type: 'FailProcessing', jobId: 'j1', code: 'X', message: 'late' })
      .thenThrows(StaleJobError);
  });
});

describe('cancelling processing', () => {
  it('cancels the running job and shows the track failed', () => {
    given(processing)
      .when({ type: 'CancelProcessing' })
      .then([{ type: 'ProcessingCancelled', data: { jobId: 'j1' } }]);
    given([...processing, { type: 'ProcessingCancelled', data: { jobId: 'j1' } }]).thenState({ status: 'FAILED' });
  });

  it('refuses once the result is ready', () => {
    given(previewed).when({ type: 'CancelProcessing' }).thenThrows('TRACKS.NOT_PROCESSING');
  });

  it('refuses on a track that does not exist', () => {
    given([]).when({ type: 'CancelProcessing' }).thenThrows(TrackNotFoundError);
  });
});

describe('unlocking a track', () => {
  it('unlocks a locked preview, whose master is then ready', () => {
    given(previewed)
      .when({ type: 'UnlockTrack', via: 'payment' })
      .then([
        { type: 'TrackUnlocked', data: { via: 'payment' } },
        { type: 'MasterReady', data: { service: 'AI_MASTERING' } },
      ]);
    given([...previewed, { type: 'TrackUnlocked', data: { via: 'payment' } }]).thenState({
      status: 'MASTER_READY',
      unlocked: true,
    });
  });

  it('unlocks a track still processing, whose master comes with its result', () => {
    given(processing)
      .when({ type: 'UnlockTrack', via: 'payment' })
      .then([{ type: 'TrackUnlocked', data: { via: 'payment' } }]);
  });

  it('unlocks once', () => {
    given([...previewed, { type: 'TrackUnlocked', data: { via: 'payment' } }])
      .when({ type: 'UnlockTrack', via: 'credit' })
      .thenNothingHappened();
  });

  it('refuses a deleted track', () => {
    given([...previewed, { type: 'TrackDeleted', data: { keys: [] } }])
      .when({ type: 'UnlockTrack', via: 'credit' })
      .thenThrows('TRACKS.NOT_FOUND');
  });
});

describe('deleting a track', () => {
  it('cancels its job and lists every file to remove', () => {
    given(processing)
      .when({ type: 'DeleteTrack' })
      .then([
        { type: 'ProcessingCancelled', data: { jobId: 'j1' } },
        { type: 'TrackDeleted', data: { keys: ['tracks/t1/original'] } },
      ]);
  });

  it('lists the result files of a finished track', () => {
    given(previewed)
      .when({ type: 'DeleteTrack' })
      .then([{ type: 'TrackDeleted', data: { keys: ['tracks/t1/original', 'tracks/t1/preview.mp3'] } }]);
  });

  it('deletes once', () => {
    given([
      ...processing,
      { type: 'ProcessingCancelled', data: { jobId: 'j1' } },
      { type: 'TrackDeleted', data: { keys: [] } },
    ])
      .when({ type: 'DeleteTrack' })
      .thenNothingHappened();
  });

  it('refuses a track that does not exist', () => {
    given([]).when({ type: 'DeleteTrack' }).thenThrows(TrackNotFoundError);
  });
});

describe('recording an e-mailed result', () => {
  const email: TrackCommand = {
    type: 'RecordEmail',
    recipientFingerprint: 'fp',
    expiresAt: '2026-03-08T10:00:00.000Z',
  };

  it('records who was sent the links and until when they work', () => {
    given(previewed)
      .when(email)
      .then([
        { type: 'TrackResultEmailed', data: { recipientFingerprint: 'fp', expiresAt: '2026-03-08T10:00:00.000Z' } },
      ]);
  });

  it('refuses before the result is ready', () => {
    given(processing).when(email).thenThrows(ResultNotReadyError);
  });
});
