import { describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@kora/kernel';
import { eventLog, jobRequestsKit } from '@kora/kernel/testing';
import { file, settings } from '../../__fixtures__/session';
import type { MixEvent } from '../../contracts/events';
import { mixStream } from '../../contracts/streams';
import { MIX_JOB, MixJobs } from './mix-jobs';

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
      data: { jobId: 'j1', session: { mixingStyle: 'POP', sampleRate: 48000, tracks: [file('a'), file('b')] } },
    });
    const { enqueued, handle } = reaction(null);
    await handle(requested);
    expect(enqueued).toEqual([
      {
        _id: 'j1',
        kind: MIX_JOB,
        subject: 's1',
        userId: 'u1',
        payload: { style: 'POP', sampleRate: 48000, tracks: [file('a'), file('b')] },
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
      log.record(stream, { type: 'MixTrackAdded', data: file('a') }),
      log.record(stream, { type: 'MixTrackAdded', data: file('b') }),
      log.record(stream, { type: 'MixTrackSettingsChanged', data: { trackId: 'b', settings: lead } }),
      log.record(stream, { type: 'MixRequested', data: { jobId: 'j1' } }),
    ];
    const { enqueued, handle } = reaction(history);
    await handle(history.at(-1)!);
    expect(enqueued.map((job) => [job._id, job.userId, job.payload])).toEqual([
      ['j1', 'u1', { style: 'POP', sampleRate: 44100, tracks: [file('a'), { ...file('b'), settings: lead }] }],
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
