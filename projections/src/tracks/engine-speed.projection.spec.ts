import { describe, expect, it } from '@jest/globals';
import type { TrackEvent } from '@kora/audio/contracts';
import { trackStream } from '@kora/audio/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { engineSpeedProjection } from './engine-speed.projection';

const givenEvents = ProjectionSpecification.for(engineSpeedProjection);

const preview = (trackId: string, processingSeconds: number, durationSec: number): TrackEvent => ({
  type: 'PreviewReady',
  data: {
    jobId: `j-${trackId}`,
    service: 'AI_MASTERING',
    files: {},
    processingSeconds,
    durationSec,
    before: null,
    after: null,
  },
});
const stems = (trackId: string, processingSeconds: number, durationSec: number): TrackEvent => ({
  type: 'StemsReady',
  data: { jobId: `j-${trackId}`, service: 'STEM_SEPARATION', files: {}, stems: [], processingSeconds, durationSec },
});

describe('the engine speed read model', () => {
  it('starts from the first measurement: processing seconds per second of audio', () => {
    const log = eventLog<TrackEvent>();
    givenEvents(log.record(trackStream('t1'), preview('t1', 6, 12))).thenDocument('AI_MASTERING', {
      _id: 'AI_MASTERING',
      realTimeFactor: expect.closeTo(0.5, 12),
      samples: 1,
    });
  });

  it('moves a fifth of the way toward each new measurement', () => {
    const log = eventLog<TrackEvent>();
    // 0.5 * 0.8 + 1.5 * 0.2 = 0.7
    givenEvents(
      log.record(trackStream('t1'), preview('t1', 6, 12)),
      log.record(trackStream('t2'), preview('t2', 30, 20)),
    ).thenDocument('AI_MASTERING', { _id: 'AI_MASTERING', realTimeFactor: expect.closeTo(0.7, 12), samples: 2 });
  });

  it('keeps one average per service', () => {
    const log = eventLog<TrackEvent>();
    givenEvents(
      log.record(trackStream('t1'), preview('t1', 6, 12)),
      log.record(trackStream('t2'), stems('t2', 20, 10)),
    ).thenDocuments([
      { _id: 'AI_MASTERING', realTimeFactor: expect.closeTo(0.5, 12), samples: 1 },
      { _id: 'STEM_SEPARATION', realTimeFactor: expect.closeTo(2, 12), samples: 1 },
    ]);
  });

  it('ignores a result without audio to measure', () => {
    const log = eventLog<TrackEvent>();
    givenEvents(log.record(trackStream('t1'), preview('t1', 0, 0))).thenNoDocument('AI_MASTERING');
  });

  it('changes nothing when a result is applied twice: each job counts once', () => {
    const log = eventLog<TrackEvent>();
    const first = log.record(trackStream('t1'), preview('t1', 6, 12));
    const second = log.record(trackStream('t2'), preview('t2', 30, 20));
    givenEvents(first, second, second, first).thenDocument('AI_MASTERING', {
      _id: 'AI_MASTERING',
      realTimeFactor: expect.closeTo(0.7, 12),
      samples: 2,
    });
  });
});
