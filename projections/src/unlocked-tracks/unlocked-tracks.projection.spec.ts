import { describe, it } from '@jest/globals';
import { type TrackEvent, trackStream } from '@kora/audio/contracts';
import type { UnlockDocument } from '@kora/billing/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import { type MixEvent, mixStream } from '@kora/mixing/contracts';
import { unlockedTracksProjection } from './unlocked-tracks.projection';

const givenEvents = ProjectionSpecification.for(unlockedTracksProjection);

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-02T10:00:00.000Z';

const unlocked = (via: 'demo' | 'payment' | 'credit'): TrackEvent => ({ type: 'TrackUnlocked', data: { via } });
const mixUnlocked = (via: 'payment' | 'credit'): MixEvent => ({ type: 'MixUnlocked', data: { via } });

const unlock: UnlockDocument = {
  _id: 't1',
  userId: 'u1',
  kind: 'track',
  via: 'payment',
  causationId: 'causation-1',
  unlockedAt: T0,
};

describe('the unlocked results read model', () => {
  it('records a track unlocked by a payment, with the event that paid for it', () => {
    const log = eventLog<TrackEvent | MixEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(log.record(trackStream('t1'), unlocked('payment'))).thenDocument('t1', unlock);
  });

  it('records a track unlocked with a credit', () => {
    const log = eventLog<TrackEvent | MixEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(
      log.record(trackStream('t1'), unlocked('credit'), { causationId: 'spend-event-7', occurredAt: T1 }),
    ).thenDocument('t1', { ...unlock, via: 'credit', causationId: 'spend-event-7', unlockedAt: T1 });
  });

  it('records a mix session unlocked, as a mix', () => {
    const log = eventLog<TrackEvent | MixEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(log.record(mixStream('s1'), mixUnlocked('credit'))).thenDocument('s1', {
      ...unlock,
      _id: 's1',
      kind: 'mix',
      via: 'credit',
    });
  });

  it('forgets a track once it is deleted', () => {
    const log = eventLog<TrackEvent | MixEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(
      log.record(trackStream('t1'), unlocked('payment')),
      log.record(mixStream('s1'), mixUnlocked('payment')),
      log.record(trackStream('t1'), { type: 'TrackDeleted', data: { keys: ['tracks/t1/original'] } }),
    ).thenDocuments([{ ...unlock, _id: 's1', kind: 'mix', causationId: 'causation-2' }]);
  });

  it('makes nothing of a track deleted before it was ever unlocked', () => {
    const log = eventLog<TrackEvent | MixEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(log.record(trackStream('t1'), { type: 'TrackDeleted', data: { keys: [] } })).thenNoDocument('t1');
  });

  it('changes nothing when an event is applied twice: a replayed unlock does not overwrite the later one', () => {
    const log = eventLog<TrackEvent | MixEvent>({ userId: 'u1', occurredAt: T0 });
    const first = log.record(trackStream('t1'), unlocked('payment'));
    const demo = log.record(trackStream('t1'), unlocked('demo'), { occurredAt: T1 });
    givenEvents(first, demo, first).thenDocument('t1', {
      ...unlock,
      via: 'demo',
      causationId: 'causation-2',
      unlockedAt: T1,
    });
  });
});
