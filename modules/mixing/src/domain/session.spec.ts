import { describe, expect, it } from '@jest/globals';
import { DeciderSpecification } from '@kora/kernel/testing';
import { file, settings } from '../__fixtures__/session';
import type { MixEvent, MixTrackAdded, MixTrackSettings } from '../contracts/events';
import { MixError } from './errors';
import { MAX_ATTEMPTS, MAX_TRACKS, type SessionCommand, sessionDecider } from './session';

const given = DeciderSpecification.for(sessionDecider);

const created: MixEvent = {
  type: 'MixSessionCreated',
  data: { sessionId: 's1', ownerId: 'u1', name: 'Demo mix', mixingStyle: 'POP', sampleRate: 44100 },
};
const added = (trackId: string): MixTrackAdded => ({ type: 'MixTrackAdded', data: file(trackId) });
const requestedAs = (jobId: string): MixEvent => ({
  type: 'MixRequested',
  data: { jobId, session: { mixingStyle: 'POP', sampleRate: 44100, tracks: [file('a'), file('b')] } },
});
const requested = requestedAs('j1');
const started = (attempt: number): MixEvent => ({
  type: 'MixStarted',
  data: { jobId: 'j1', workerId: 'w', attempt },
});
const ready: MixEvent = {
  type: 'MixReady',
  data: { jobId: 'j1', files: { mix: 'mix/s1/mix.wav' }, processingSeconds: 4, durationSec: 30 },
};

/** A session with two tracks, ready to mix. */
const mixable: MixEvent[] = [created, added('a'), added('b')];
/** A session whose mix is being made. */
const mixing: MixEvent[] = [...mixable, requested];

const create: SessionCommand = {
  type: 'CreateSession',
  sessionId: 's1',
  ownerId: 'u1',
  name: 'Demo mix',
  mixingStyle: 'POP',
  sampleRate: 44100,
};
const startMix: SessionCommand = { type: 'StartMix', jobId: 'j1', workerId: 'w' };

describe('creating a mixing session', () => {
  it('records the session with its style and sample rate', () => {
    given([]).when(create).then([created]);
  });

  it('is idempotent: a retried creation records nothing', () => {
    given([created]).when(create).thenNothingHappened();
  });
});

describe('changing the session', () => {
  it('records the new style and sample rate', () => {
    given(mixable)
      .when({ type: 'ChangeSession', mixingStyle: 'HIPHOP_GRIME', sampleRate: 48000 })
      .then([{ type: 'MixSessionChanged', data: { mixingStyle: 'HIPHOP_GRIME', sampleRate: 48000 } }]);
  });

  it('puts a finished session back to CREATED, so the new settings can be mixed', () => {
    given([
      ...mixing,
      ready,
      { type: 'MixSessionChanged', data: { mixingStyle: 'ROCK_INDIE', sampleRate: 48000 } },
    ]).thenState({ status: 'CREATED', jobId: null, mixingStyle: 'ROCK_INDIE', sampleRate: 48000 });
  });

  it('refuses while the mix is being made', () => {
    const error = given(mixing)
      .when({ type: 'ChangeSession', mixingStyle: 'ROCK_INDIE', sampleRate: 44100 })
      .thenThrows('MIXING.BUSY');
    expect(error.kind).toBe('conflict');
  });

  it('refuses a session that does not exist', () => {
    const error = given([])
      .when({ type: 'ChangeSession', mixingStyle: 'ROCK_INDIE', sampleRate: 44100 })
      .thenThrows('MIXING.SESSION_NOT_FOUND');
    expect(error.kind).toBe('not_found');
  });
});

describe('adding tracks', () => {
  it('records one event per track', () => {
    given([created])
      .when({ type: 'AddTracks', tracks: [file('a'), file('b')] })
      .then([added('a'), added('b')]);
  });

  it(`takes up to ${MAX_TRACKS} tracks`, () => {
    given([created, added('a'), added('b'), added('c')])
      .when({ type: 'AddTracks', tracks: [file('d'), file('e')] })
      .then([added('d'), added('e')]);
  });

  it(`refuses a track beyond ${MAX_TRACKS}`, () => {
    const error = given([created, added('a'), added('b'), added('c'), added('d')])
      .when({ type: 'AddTracks', tracks: [file('e'), file('f')] })
      .thenThrows(MixError);
    expect(error).toMatchObject({ code: 'MIXING.MAXIMUM_FILES', kind: 'invalid', details: { max: MAX_TRACKS } });
  });

  it('refuses an empty upload', () => {
    given([created]).when({ type: 'AddTracks', tracks: [] }).thenThrows('MIXING.NO_FILES');
  });

  it('refuses while the mix is being made', () => {
    given(mixing)
      .when({ type: 'AddTracks', tracks: [file('c')] })
      .thenThrows('MIXING.BUSY');
  });
});

describe('changing a track’s settings', () => {
  const lead: MixTrackSettings = { ...settings, presenceSetting: 'LEAD', panPreference: 'CENTRE' };

  it('records the new settings', () => {
    given(mixable)
      .when({ type: 'ChangeTrackSettings', trackId: 'a', settings: lead })
      .then([{ type: 'MixTrackSettingsChanged', data: { trackId: 'a', settings: lead } }]);
  });

  it('refuses a track the session does not have', () => {
    const error = given(mixable)
      .when({ type: 'ChangeTrackSettings', trackId: 'zz', settings: lead })
      .thenThrows('MIXING.TRACK_NOT_FOUND');
    expect(error.kind).toBe('not_found');
  });

  it('refuses while the mix is being made', () => {
    given(mixing).when({ type: 'ChangeTrackSettings', trackId: 'a', settings: lead }).thenThrows('MIXING.BUSY');
  });
});

describe('removing a track', () => {
  it('records the removal with the file to delete', () => {
    given(mixable)
      .when({ type: 'RemoveTrack', trackId: 'a' })
      .then([{ type: 'MixTrackRemoved', data: { trackId: 'a', fileKey: 'mix/s1/a.wav' } }]);
  });

  it('refuses a track the session does not have', () => {
    given(mixable).when({ type: 'RemoveTrack', trackId: 'zz' }).thenThrows('MIXING.TRACK_NOT_FOUND');
  });

  it('refuses a track already removed', () => {
    given([...mixable, { type: 'MixTrackRemoved', data: { trackId: 'a', fileKey: 'mix/s1/a.wav' } }])
      .when({ type: 'RemoveTrack', trackId: 'a' })
      .thenThrows('MIXING.TRACK_NOT_FOUND');
  });
});

describe('requesting a mix', () => {
  it('asks for a mix of two tracks or more, with the session it mixes', () => {
    given(mixable).when({ type: 'RequestMix', jobId: 'j1' }).then([requested]);
  });

  it('carries the session as it stands: its changed style and rate, each track with its latest settings', () => {
    const lead = { ...settings, presenceSetting: 'LEAD' as const };
    given([
      ...mixable,
      { type: 'MixSessionChanged', data: { mixingStyle: 'HIPHOP_GRIME', sampleRate: 48000 } },
      { type: 'MixTrackSettingsChanged', data: { trackId: 'a', settings: lead } },
      added('c'),
      { type: 'MixTrackRemoved', data: { trackId: 'b', fileKey: 'mix/s1/b.wav' } },
    ])
      .when({ type: 'RequestMix', jobId: 'j1' })
      .then([
        {
          type: 'MixRequested',
          data: {
            jobId: 'j1',
            session: {
              mixingStyle: 'HIPHOP_GRIME',
              sampleRate: 48000,
              tracks: [{ ...file('a'), settings: lead }, file('c')],
            },
          },
        },
      ]);
  });

  it('refuses fewer than two tracks', () => {
    const error = given([created, added('a')])
      .when({ type: 'RequestMix', jobId: 'j1' })
      .thenThrows(MixError);
    expect(error).toMatchObject({ code: 'MIXING.MINIMUM_FILES', details: { min: 2 } });
  });

  it('records nothing while a mix is being made', () => {
    given(mixing).when({ type: 'RequestMix', jobId: 'j2' }).thenNothingHappened();
  });

  it('records nothing once the mix is ready', () => {
    given([...mixing, ready])
      .when({ type: 'RequestMix', jobId: 'j2' })
      .thenNothingHappened();
  });

  it('asks again after a failed mix', () => {
    given([...mixing, { type: 'MixFailed', data: { jobId: 'j1', code: 'ENGINE.FAILED', message: 'x' } }])
      .when({ type: 'RequestMix', jobId: 'j2' })
      .then([requestedAs('j2')]);
  });

  it('refuses a session that does not exist', () => {
    given([]).when({ type: 'RequestMix', jobId: 'j1' }).thenThrows('MIXING.SESSION_NOT_FOUND');
  });
});

describe('starting the mix job', () => {
  it('counts the first attempt', () => {
    given(mixing)
      .when(startMix)
      .then([started(1)]);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts whose worker disappeared`, () => {
    given([...mixing, started(1), started(2), started(3)])
      .when(startMix)
      .then([
        {
          type: 'MixFailed',
          data: {
            jobId: 'j1',
            code: 'PROCESSING.WORKER_LOST',
            message: 'The mix stopped three times; please try again.',
          },
        },
      ]);
  });

  it('refuses a job the session no longer waits for', () => {
    const error = given(mixing)
      .when({ ...startMix, jobId: 'old' })
      .thenThrows('MIXING.STALE_JOB');
    expect(error.kind).toBe('conflict');
  });
});

describe('completing the mix', () => {
  const complete: SessionCommand = {
    type: 'CompleteMix',
    jobId: 'j1',
    files: { mix: 'mix/s1/mix.wav' },
    processingSeconds: 4,
    durationSec: 30,
  };

  it('records the result files', () => {
    given([...mixing, started(1)])
      .when(complete)
      .then([ready]);
  });

  it('shows the session completed', () => {
    given([...mixing, started(1), ready]).thenState({ status: 'COMPLETED' });
  });

  it('refuses a result from a cancelled job', () => {
    given([...mixing, { type: 'MixCancelled', data: { jobId: 'j1' } }])
      .when(complete)
      .thenThrows('MIXING.STALE_JOB');
  });

  it('refuses a result once the tracks changed', () => {
    given([...mixing, added('c')])
      .when(complete)
      .thenThrows('MIXING.STALE_JOB');
  });
});

describe('failing the mix', () => {
  it('records the failure with its code', () => {
    given(mixing)
      .when({ type: 'FailMix', jobId: 'j1', code: 'ENGINE.FAILED', message: 'Decoding failed' })
      .then([{ type: 'MixFailed', data: { jobId: 'j1', code: 'ENGINE.FAILED', message: 'Decoding failed' } }]);
  });

  it('refuses a failure from a job already finished', () => {
    given([...mixing, ready])
      .when({ type: 'FailMix', jobId: 'j1', code: 'X', message: 'late' })
      .thenThrows('MIXING.STALE_JOB');
  });
});

describe('cancelling the mix', () => {
  it('cancels the running job', () => {
    given(mixing)
      .when({ type: 'CancelMix' })
      .then([{ type: 'MixCancelled', data: { jobId: 'j1' } }]);
  });

  it('shows the session failed once cancelled', () => {
    given([...mixing, { type: 'MixCancelled', data: { jobId: 'j1' } }]).thenState({ status: 'FAILED' });
  });

  it('records nothing when no mix is being made', () => {
    given(mixable).when({ type: 'CancelMix' }).thenNothingHappened();
  });

  it('refuses a session that does not exist', () => {
    given([]).when({ type: 'CancelMix' }).thenThrows('MIXING.SESSION_NOT_FOUND');
  });
});
