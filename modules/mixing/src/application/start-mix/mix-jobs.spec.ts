import { describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@kora/kernel';
import { eventLog, jobRequestsKit } from '@kora/kernel/testing';
import type { MixEvent, MixTrackFile, MixTrackSettings } from '../../contracts/events';
import { mixStream } from '../../contracts/streams';
import { MIX_JOB, MixJobs } from './mix-jobs';

const settings: MixTrackSettings = {
  instrumentGroup: 'lead_vocal',
  presenceSetting: 'NORMAL',
  panPreference: 'NO_PREFERENCE',
  reverbPreference: 'NONE',
};
const track = (trackId: string): MixTrackFile & { settings: MixTrackSettings } => ({
  trackId,
  filename: `${trackId}.wav`,
  fileKey: `mixes/s1/${trackId}.wav`,
  fileSize: 1_000_000,
  durationSec: 30,
  sampleRate: 44_100,
  channels: 2,
  settings,
});

/** The reaction with a queue that records, and a log that holds `stored` (or refuses to be read, when null). */
function reaction(stored: RecordedEvent<MixEvent>[] | null) {
  const kit = jobRequestsKit(stored);
  const unused = undefined as never; // what only running a job needs
  new MixJobs(...kit.ports, unused, unused, unused, unused).onModuleInit();
  return kit;
}

describe('mix jobs: a mix request enqueues its job, an outcome removes it', () => {
  const stream = mixStream('s1');

  it('enqueues the job from the request alone, which carries its session (the stream is not read)', async () => {
    const log = eventLog<MixEvent>({ userId: 'u1', occurredAt: '2026-12-01T21:00:00.000Z' });
    const requested = log.record(stream, {
      type: 'MixRequested',
      data: { jobId: 'j1', session: { mixingStyle: 'POP', sampleRate: 48000, tracks: [track('a'), track('b')] } },
    });
    const { enqueued, handle } = reaction(null);
    await handle(requested);
    expect(enqueued).toEqual([
      {
        _id: 'j1',
        kind: MIX_JOB,
        subject: 's1',
        userId: 'u1',
        payload: { style: 'POP', sampleRate: 48000, tracks: [track('a'), track('b')] },
        enqueuedAt: '2026-12-01T21:00:00.000Z',
      },
    ]);
  });

  it('folds the session from the stream for a request recorded before requests carried it', async () => {
    const log = eventLog<MixEvent>({ userId: 'u1' });
    const lead = { ...settings, presenceSetting: 'LEAD' as const };
    const history = [
      log.record(stream, {
        type: 'MixSessionCreated',
        data: { sessionId: 's1', ownerId: 'u1', name: 'Demo mix', mixingStyle: 'POP', sampleRate: 44100 },
      }),
      log.record(stream, { type: 'MixTrackAdded', data: track('a') }),
      log.record(stream, { type: 'MixTrackAdded', data: track('b') }),
      log.record(stream, { type: 'MixTrackSettingsChanged', data: { trackId: 'b', settings: lead } }),
      log.record(stream, { type: 'MixRequested', data: { jobId: 'j1' } }),
    ];
    const { enqueued, handle } = reaction(history);
    await handle(history.at(-1)!);
    expect(enqueued.map((job) => [job._id, job.userId, job.payload])).toEqual([
      ['j1', 'u1', { style: 'POP', sampleRate: 44100, tracks: [track('a'), { ...track('b'), settings: lead }] }],
    ]);
  });

  it('removes the job once the mix has an outcome', async () => {
    const log = eventLog<MixEvent>();
    const cancelled = log.record(stream, { type: 'MixCancelled', data: { jobId: 'j1' } });
    const { enqueued, removed, handle } = reaction(null);
    await handle(cancelled);
    expect({ enqueued, removed }).toEqual({ enqueued: [], removed: ['s1'] });
  });
});
