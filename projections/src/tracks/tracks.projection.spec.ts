import { describe, it } from '@jest/globals';
import type { TrackDocument, TrackEvent, TrackUploaded } from '@kora/audio/contracts';
import { trackStream } from '@kora/audio/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { tracksProjection } from './tracks.projection';

const givenEvents = ProjectionSpecification.for(tracksProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:01:00.000Z';
const T2 = '2026-03-01T10:02:00.000Z';
const stream = trackStream('t1');

const upload = (overrides: Partial<TrackUploaded['data']> = {}): TrackUploaded => ({
  type: 'TrackUploaded',
  data: {
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
  },
});
const requested: TrackEvent = {
  type: 'ProcessingRequested',
  data: { jobId: 'j1', service: 'AI_MASTERING', options: { preset: null, mode: null } },
};
const previewReady: TrackEvent = {
  type: 'PreviewReady',
  data: {
    jobId: 'j1',
    service: 'AI_MASTERING',
    files: { preview: 'tracks/t1/preview.mp3', master: 'tracks/t1/master.wav' },
    processingSeconds: 3,
    durationSec: 12,
    before: null,
    after: null,
  },
};

const uploaded: TrackDocument = {
  _id: 't1',
  userId: 'u1',
  filename: 'song.wav',
  format: 'wav',
  contentType: 'audio/wav',
  service: 'AI_MASTERING',
  options: { preset: null, mode: null },
  status: 'UPLOADING',
  error: null,
  isDemo: false,
  isVideo: false,
  unlocked: false,
  fileSize: 2_000_000,
  durationSec: 12,
  sampleRate: 44_100,
  channels: 2,
  files: { original: 'tracks/t1/original' },
  stems: [],
  jobId: null,
  attempt: 0,
  progress: 0,
  processingStartedAt: null,
  createdAt: T0,
  updatedAt: T0,
};
const processing: TrackDocument = { ...uploaded, jobId: 'j1', status: 'PROCESSING' };
const preview: TrackDocument = {
  ...processing,
  status: 'PREVIEW_READY',
  progress: 1,
  files: { original: 'tracks/t1/original', preview: 'tracks/t1/preview.mp3', master: 'tracks/t1/master.wav' },
};

describe('the tracks read model', () => {
  it('shows an upload with its file', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, upload())).thenDocument('t1', uploaded);
  });

  it('shows the job asked for, with its options and first status', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, upload()), log.record(stream, requested)).thenDocument('t1', processing);
  });

  it('shows stem separation as STEMS_PROCESSING, with the mode asked for', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload({ service: 'STEM_SEPARATION' })),
      log.record(stream, {
        type: 'ProcessingRequested',
        data: { jobId: 'j1', service: 'STEM_SEPARATION', options: { preset: null, mode: 'vocals' } },
      }),
    ).thenDocument('t1', {
      ...processing,
      service: 'STEM_SEPARATION',
      options: { preset: null, mode: 'vocals' },
      status: 'STEMS_PROCESSING',
    });
  });

  it('records when an attempt started, and starts its progress again', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, { type: 'ProcessingProgressed', data: { jobId: 'j1', status: 'ANALYZING', progress: 0.4 } }),
      log.record(
        stream,
        { type: 'ProcessingStarted', data: { jobId: 'j1', workerId: 'w', attempt: 2 } },
        {
          occurredAt: T1,
        },
      ),
    ).thenDocument('t1', {
      ...processing,
      status: 'ANALYZING',
      attempt: 2,
      progress: 0,
      processingStartedAt: T1,
      updatedAt: T1,
    });
  });

  it('follows the steps and progress of the job', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, { type: 'ProcessingProgressed', data: { jobId: 'j1', status: 'FINALIZING', progress: 0.8 } }),
    ).thenDocument('t1', { ...processing, status: 'FINALIZING', progress: 0.8 });
  });

  it('shows a locked preview with its files when the job ends', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, previewReady),
    ).thenDocument('t1', preview);
  });

  it('lists the stems of a finished separation', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload({ service: 'STEM_SEPARATION' })),
      log.record(stream, {
        type: 'ProcessingRequested',
        data: { jobId: 'j1', service: 'STEM_SEPARATION', options: { preset: null, mode: 'full' } },
      }),
      log.record(stream, {
        type: 'StemsReady',
        data: {
          jobId: 'j1',
          service: 'STEM_SEPARATION',
          files: { vocals: 'tracks/t1/vocals.wav' },
          stems: ['vocals', 'accompaniment'],
          processingSeconds: 9,
          durationSec: 12,
        },
      }),
    ).thenDocument('t1', {
      ...processing,
      service: 'STEM_SEPARATION',
      options: { preset: null, mode: 'full' },
      status: 'STEMS_READY',
      progress: 1,
      files: { original: 'tracks/t1/original', vocals: 'tracks/t1/vocals.wav' },
      stems: ['vocals', 'accompaniment'],
    });
  });

  it('turns the preview into the master once unlocked', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, previewReady),
      log.record(stream, { type: 'TrackUnlocked', data: { via: 'payment' } }, { occurredAt: T1 }),
    ).thenDocument('t1', { ...preview, unlocked: true, status: 'MASTER_READY', updatedAt: T1 });
  });

  it('keeps the job’s status when a track is unlocked before its result', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload({ isDemo: true })),
      log.record(stream, requested),
      log.record(stream, { type: 'TrackUnlocked', data: { via: 'demo' } }),
    ).thenDocument('t1', { ...processing, isDemo: true, unlocked: true });
  });

  it('gives a track unlocked before its result the final status when the result comes', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload({ isDemo: true })),
      log.record(stream, requested),
      log.record(stream, { type: 'TrackUnlocked', data: { via: 'demo' } }),
      log.record(stream, previewReady),
    ).thenDocument('t1', { ...preview, isDemo: true, unlocked: true, status: 'MASTER_READY' });
  });

  it('shows a failure with its code', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, {
        type: 'ProcessingFailed',
        data: { jobId: 'j1', code: 'ENGINE.TOO_SHORT', message: 'The recording is too short.' },
      }),
    ).thenDocument('t1', {
      ...processing,
      status: 'FAILED',
      error: { code: 'ENGINE.TOO_SHORT', message: 'The recording is too short.' },
    });
  });

  it('shows a job the user cancelled as cancelled, not failed', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, { type: 'ProcessingCancelled', data: { jobId: 'j1' } }),
    ).thenDocument('t1', {
      ...processing,
      status: 'CANCELLED',
      error: { code: 'PROCESSING.CANCELLED', message: 'Processing was cancelled.' },
    });
  });

  it('leaves the track as it is when its result is e-mailed', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, previewReady),
      log.record(
        stream,
        { type: 'TrackResultEmailed', data: { recipientFingerprint: 'fp', expiresAt: T2 } },
        { occurredAt: T2 },
      ),
    ).thenDocument('t1', preview);
  });

  it('removes a deleted track', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, { type: 'TrackDeleted', data: { keys: ['tracks/t1/original'] } }),
    ).thenNoDocument('t1');
  });

  it('changes nothing when an event is applied twice, even after later ones', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    const analyzing: TrackEvent = {
      type: 'ProcessingProgressed',
      data: { jobId: 'j1', status: 'ANALYZING', progress: 0.4 },
    };
    const finalizing: TrackEvent = {
      type: 'ProcessingProgressed',
      data: { jobId: 'j1', status: 'FINALIZING', progress: 0.8 },
    };
    const events = [
      log.record(stream, upload()),
      log.record(stream, requested),
      log.record(stream, analyzing),
      log.record(stream, finalizing),
    ];
    givenEvents(...events, events[2]!).thenDocument('t1', { ...processing, status: 'FINALIZING', progress: 0.8 });
  });
});
