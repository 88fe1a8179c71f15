import { describe, it } from '@jest/globals';
import { mixStream } from '@kora/mixing/contracts';
import { eventLog, ProjectionSpecification } from '@kora/kernel/testing';
import type { MixEvent, MixSessionDocument, MixTrackAdded, MixTrackSettings } from '@kora/mixing/contracts';
import { mixSessionsProjection, mixTracksProjection } from './mix-sessions.projection';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:01:00.000Z';
const T2 = '2026-03-01T10:02:00.000Z';
const stream = mixStream('s1');

const settings: MixTrackSettings = {
  instrumentGroup: 'vocal',
  presenceSetting: 'NORMAL',
  panPreference: 'NO_PREFERENCE',
  reverbPreference: 'NONE',
};
const created: MixEvent = {
  type: 'MixSessionCreated',
  data: { sessionId: 's1', ownerId: 'u1', name: 'Demo mix', mixingStyle: 'POP', sampleRate: 44100 },
};
const added = (trackId: string): MixTrackAdded => ({
  type: 'MixTrackAdded',
  data: {
    trackId,
    filename: `${trackId}.wav`,
    fileKey: `mix/s1/${trackId}.wav`,
    fileSize: 1_000_000,
    durationSec: 30,
    sampleRate: 44_100,
    channels: 2,
    settings,
  },
});
const requested: MixEvent = { type: 'MixRequested', data: { jobId: 'j1' } };
const ready: MixEvent = {
  type: 'MixReady',
  data: { jobId: 'j1', files: { mix: 'mix/s1/mix.wav' }, processingSeconds: 4, durationSec: 30 },
};

const session: MixSessionDocument = {
  _id: 's1',
  userId: 'u1',
  name: 'Demo mix',
  mixingStyle: 'POP',
  sampleRate: 44100,
  status: 'CREATED',
  error: null,
  tracks: [],
  files: {},
  jobId: null,
  unlocked: false,
  createdAt: T0,
  updatedAt: T0,
};
const withTracks: MixSessionDocument = { ...session, tracks: [added('a').data, added('b').data] };

describe('the mix sessions read model', () => {
  const givenEvents = ProjectionSpecification.for(mixSessionsProjection);

  it('makes a session from its creation', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, created)).thenDocument('s1', session);
  });

  it('lists the tracks in the order they were added', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, added('a')),
      log.record(stream, added('b')),
    ).thenDocument('s1', withTracks);
  });

  it('changes the settings of the track named', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    const lead: MixTrackSettings = { ...settings, presenceSetting: 'LEAD' };
    givenEvents(
      log.record(stream, created),
      log.record(stream, added('a')),
      log.record(stream, added('b')),
      log.record(stream, { type: 'MixTrackSettingsChanged', data: { trackId: 'b', settings: lead } }),
    ).thenDocument('s1', { ...withTracks, tracks: [added('a').data, { ...added('b').data, settings: lead }] });
  });

  it('removes the track named', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, added('a')),
      log.record(stream, added('b')),
      log.record(stream, { type: 'MixTrackRemoved', data: { trackId: 'a', fileKey: 'mix/s1/a.wav' } }),
    ).thenDocument('s1', { ...session, tracks: [added('b').data] });
  });

  it('shows the mix being made, then its files', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, added('a')),
      log.record(stream, added('b')),
      log.record(stream, requested, { occurredAt: T1 }),
      log.record(stream, { type: 'MixStarted', data: { jobId: 'j1', workerId: 'w', attempt: 1 } }, { occurredAt: T1 }),
      log.record(stream, ready, { occurredAt: T2 }),
    ).thenDocument('s1', {
      ...withTracks,
      status: 'COMPLETED',
      jobId: 'j1',
      files: { mix: 'mix/s1/mix.wav' },
      updatedAt: T2,
    });
  });

  it('clears the result when the session is edited after a mix', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, added('a')),
      log.record(stream, added('b')),
      log.record(stream, requested),
      log.record(stream, ready),
      log.record(
        stream,
        { type: 'MixSessionChanged', data: { mixingStyle: 'ROCK_INDIE', sampleRate: 48000 } },
        {
          occurredAt: T1,
        },
      ),
    ).thenDocument('s1', { ...withTracks, mixingStyle: 'ROCK_INDIE', sampleRate: 48000, updatedAt: T1 });
  });

  it('shows a failed mix with its code', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, requested),
      log.record(stream, {
        type: 'MixFailed',
        data: { jobId: 'j1', code: 'ENGINE.FAILED', message: 'Decoding failed' },
      }),
    ).thenDocument('s1', {
      ...session,
      status: 'FAILED',
      jobId: 'j1',
      error: { code: 'ENGINE.FAILED', message: 'Decoding failed' },
    });
  });

  it('shows a mix the user cancelled as cancelled, not failed', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, requested),
      log.record(stream, { type: 'MixCancelled', data: { jobId: 'j1' } }),
    ).thenDocument('s1', {
      ...session,
      status: 'CANCELLED',
      jobId: 'j1',
      error: { code: 'PROCESSING.CANCELLED', message: 'The mix was cancelled.' },
    });
  });

  it('makes no document for events of a session it never saw created', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    givenEvents(log.record(stream, added('a')), log.record(stream, requested)).thenNoDocument('s1');
  });

  it('changes nothing when an event is applied twice: a track added once is listed once', () => {
    const log = eventLog<MixEvent>({ occurredAt: T0 });
    const first = log.record(stream, created);
    const a = log.record(stream, added('a'));
    const b = log.record(stream, added('b'));
    givenEvents(first, a, b, a, b).thenDocument('s1', withTracks);
  });
});

describe('the mix tracks read model', () => {
  const givenEvents = ProjectionSpecification.for(mixTracksProjection);

  it('points each added track to its session and owner', () => {
    const log = eventLog<MixEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(
      log.record(stream, created),
      log.record(stream, added('a')),
      log.record(stream, added('b')),
    ).thenDocuments([
      { _id: 'a', sessionId: 's1', userId: 'u1' },
      { _id: 'b', sessionId: 's1', userId: 'u1' },
    ]);
  });

  it('forgets a removed track', () => {
    const log = eventLog<MixEvent>({ userId: 'u1', occurredAt: T0 });
    givenEvents(
      log.record(stream, added('a')),
      log.record(stream, { type: 'MixTrackRemoved', data: { trackId: 'a', fileKey: 'mix/s1/a.wav' } }),
    ).thenNoDocument('a');
  });

  it('changes nothing when an event is applied twice', () => {
    const log = eventLog<MixEvent>({ userId: 'u1', occurredAt: T0 });
    const a = log.record(stream, added('a'));
    givenEvents(a, a).thenDocuments([{ _id: 'a', sessionId: 's1', userId: 'u1' }]);
  });
});
