import { describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@kora/kernel';
import { eventLog, jobRequestsKit } from '@kora/kernel/testing';
import type { TrackEvent, TrackUploaded } from '../../contracts/events';
import { trackStream } from '../../contracts/streams';
import { TRACK_JOB, TrackJobs } from './track-jobs';

const upload: TrackUploaded['data'] = {
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
};

/** The reaction with a queue that records, and a log that holds `stored` (or refuses to be read, when null). */
function reaction(stored: RecordedEvent<TrackEvent>[] | null) {
  const kit = jobRequestsKit(stored);
  const unused = undefined as never; // what only running a job needs
  new TrackJobs(...kit.ports, unused, unused, unused, unused, unused).onModuleInit();
  return kit;
}

describe('track jobs: a processing request enqueues its job, an outcome removes it', () => {
  const stream = trackStream('t1');
  const options = { preset: null, mode: null };

  it('enqueues the job from the request alone, which carries its upload (the stream is not read)', async () => {
    const log = eventLog<TrackEvent>({ occurredAt: '2026-11-28T02:00:00.000Z' });
    log.record(stream, { type: 'TrackUploaded', data: upload });
    const requested = log.record(stream, {
      type: 'ProcessingRequested',
      data: { jobId: 'j1', service: 'AI_MASTERING', options, upload },
    });
    const { enqueued, handle } = reaction(null);
    await handle(requested);
    expect(enqueued).toEqual([
      {
        _id: 'j1',
        kind: TRACK_JOB,
        subject: 't1',
        userId: 'u1',
        payload: { service: 'AI_MASTERING', options, upload },
        enqueuedAt: '2026-11-28T02:00:00.000Z',
      },
    ]);
  });

  it('reads the upload from the stream for a request recorded before requests carried it', async () => {
    const log = eventLog<TrackEvent>();
    const uploaded = log.record(stream, { type: 'TrackUploaded', data: upload });
    const requested = log.record(stream, {
      type: 'ProcessingRequested',
      data: { jobId: 'j1', service: 'AI_MASTERING', options },
    });
    const { enqueued, handle } = reaction([uploaded]);
    await handle(requested);
    expect(enqueued.map((job) => [job._id, job.userId, (job.payload as { upload: unknown }).upload])).toEqual([
      ['j1', 'u1', upload],
    ]);
  });

  it('removes the job once the track has an outcome', async () => {
    const log = eventLog<TrackEvent>();
    const cancelled = log.record(stream, { type: 'ProcessingCancelled', data: { jobId: 'j1' } });
    const { enqueued, removed, handle } = reaction(null);
    await handle(cancelled);
    expect({ enqueued, removed }).toEqual({ enqueued: [], removed: ['t1'] });
  });
});
