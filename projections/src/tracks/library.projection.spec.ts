import { describe, expect, it } from '@jest/globals';
import type { TrackEvent, TrackUploaded } from '@kora/audio/contracts';
import { trackStream } from '@kora/audio/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { collapseKey, libraryProjection } from './library.projection';

const givenEvents = ProjectionSpecification.for(libraryProjection);

const T0 = '2026-03-01T10:00:00.000Z';

const upload = (trackId: string, overrides: Partial<TrackUploaded['data']> = {}): TrackUploaded => ({
  type: 'TrackUploaded',
  data: {
    trackId,
    ownerId: 'u1',
    service: 'AI_MASTERING',
    filename: 'Song (2).wav',
    format: 'wav',
    contentType: 'audio/wav',
    fileSize: 2_000_000,
    durationSec: 12,
    sampleRate: 44_100,
    channels: 2,
    isVideo: false,
    isDemo: false,
    originalKey: `tracks/${trackId}/original`,
    ...overrides,
  },
});
const deleted: TrackEvent = { type: 'TrackDeleted', data: { keys: ['tracks/t1/original'] } };

describe('the library read model', () => {
  it('lists a file the user uploaded, under the key its copies share', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(log.record(trackStream('t1'), upload('t1'))).thenDocument('t1', {
      _id: 't1',
      userId: 'u1',
      filename: 'Song (2).wav',
      collapseKey: 'song.wav',
      fileSize: 2_000_000,
      format: 'wav',
      isVideo: false,
      durationSec: 12,
      service: 'AI_MASTERING',
      createdAt: T0,
    });
  });

  it('leaves demo tracks out', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(log.record(trackStream('t1'), upload('t1', { isDemo: true }))).thenDocuments([]);
  });

  it('removes a deleted track', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(log.record(trackStream('t1'), upload('t1')), log.record(trackStream('t1'), deleted)).thenNoDocument(
      't1',
    );
  });

  it('ignores the processing events', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(trackStream('t1'), upload('t1')),
      log.record(trackStream('t1'), {
        type: 'ProcessingRequested',
        data: { jobId: 'j1', service: 'AI_MASTERING', options: { preset: null, mode: null } },
      }),
    ).thenDocuments([expect.objectContaining({ _id: 't1', filename: 'Song (2).wav' })]);
  });

  it('changes nothing when an event is applied twice', () => {
    const log = eventLog<TrackEvent>({ occurredAt: T0 });
    const first = log.record(trackStream('t1'), upload('t1'));
    const second = log.record(trackStream('t2'), upload('t2', { filename: 'take.wav' }));
    givenEvents(first, second, second).thenDocuments([
      expect.objectContaining({ _id: 't1' }),
      expect.objectContaining({ _id: 't2', collapseKey: 'take.wav' }),
    ]);
  });
});

describe('the collapse key', () => {
  it('drops the copy number a browser or a system adds, and the case', () => {
    expect(collapseKey('Song (2).wav')).toBe('song.wav');
    expect(collapseKey('song.wav')).toBe('song.wav');
    expect(collapseKey('Take (12)')).toBe('take');
  });

  it('keeps a number that is part of the name', () => {
    expect(collapseKey('Track (2) final.wav')).toBe('track (2) final.wav');
  });
});
