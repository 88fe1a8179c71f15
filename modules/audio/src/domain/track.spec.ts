import { describe, expect, it } from '@jest/globals';
import type { TrackEvent, TrackUploaded } from '../contracts/events';
import { MAX_ATTEMPTS, type TrackCommand, trackDecider } from './track';

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

/** Given these events, deciding this command gives... */
function given(...history: TrackCommand[]) {
  let events: TrackEvent[] = [];
  for (const command of history) {
    const state = events.reduce(trackDecider.evolve, trackDecider.initialState());
    events = [...events, ...trackDecider.decide(command, state)];
  }
  const state = events.reduce(trackDecider.evolve, trackDecider.initialState());
  return { events, state, when: (command: TrackCommand) => trackDecider.decide(command, state) };
}

const uploaded = (data = upload()): TrackCommand => ({
  type: 'UploadTrack',
  upload: data,
  jobId: 'j1',
  options: { preset: null, mode: null },
});
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

describe('the track decider', () => {
  it('records the upload and asks for processing, once', () => {
    const { events, state, when } = given(uploaded());
    expect(events.map((e) => e.type)).toEqual(['TrackUploaded', 'ProcessingRequested']);
    expect(state.status).toBe('PROCESSING');
    expect(when(uploaded())).toEqual([]);
  });

  it('follows the job to a locked preview, then the master once unlocked', () => {
    const started = given(uploaded(), { type: 'StartProcessing', jobId: 'j1', workerId: 'w' });
    expect(started.events.at(-1)).toMatchObject({ type: 'ProcessingStarted', data: { attempt: 1 } });
    const progressed = given(uploaded(), { type: 'RecordProgress', jobId: 'j1', status: 'ANALYZING', progress: 0.2 });
    expect(progressed.state.status).toBe('ANALYZING');
    expect(progressed.when({ type: 'RecordProgress', jobId: 'j1', status: 'ANALYZING', progress: 0.3 })).toEqual([]);
    const ready = given(uploaded(), complete);
    expect(ready.state.status).toBe('PREVIEW_READY');
    expect(given(uploaded(), complete, { type: 'UnlockTrack', via: 'payment' }).state.status).toBe('MASTER_READY');
  });

  it('ends stems at STEMS_READY and enhancement at PREVIEW_READY; demo tracks come unlocked', () => {
    const stems = given(uploaded(upload({ service: 'STEM_SEPARATION' })), {
      ...complete,
      stems: ['vocals', 'accompaniment'],
    });
    expect(stems.events.at(-1)?.type).toBe('StemsReady');
    expect(stems.state.status).toBe('STEMS_READY');
    expect(given(uploaded(upload({ service: 'AUDIO_ENHANCEMENT' })), complete).state.status).toBe('PREVIEW_READY');
    const demo = given(uploaded(upload({ isDemo: true, service: 'AUDIO_ENHANCEMENT' })), complete);
    expect(demo.state.status).toBe('COMPLETED');
  });

  it('refuses steps from a job the track no longer runs', () => {
    const cancelled = given(uploaded(), { type: 'CancelProcessing' });
    expect(cancelled.state.status).toBe('FAILED');
    expect(() => cancelled.when(complete)).toThrow(expect.objectContaining({ code: 'TRACKS.STALE_JOB' }));
    expect(() => given(uploaded()).when({ ...complete, jobId: 'other' })).toThrow(
      expect.objectContaining({ code: 'TRACKS.STALE_JOB' }),
    );
    expect(() => given(uploaded(), complete).when({ type: 'CancelProcessing' })).toThrow(
      expect.objectContaining({ code: 'TRACKS.NOT_PROCESSING' }),
    );
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts whose worker disappeared`, () => {
    const start: TrackCommand = { type: 'StartProcessing', jobId: 'j1', workerId: 'w' };
    const { when, state } = given(uploaded(), start, start, start);
    expect(state.attempt).toBe(3);
    expect(when(start)).toEqual([
      expect.objectContaining({
        type: 'ProcessingFailed',
        data: expect.objectContaining({ code: 'PROCESSING.WORKER_LOST' }),
      }),
    ]);
  });

  it('deletes a track, cancelling its job, and lists every file to remove', () => {
    const { events, when } = given(uploaded(), { type: 'DeleteTrack' });
    expect(events.slice(-2)).toEqual([
      { type: 'ProcessingCancelled', data: { jobId: 'j1' } },
      { type: 'TrackDeleted', data: { keys: ['tracks/t1/original'] } },
    ]);
    expect(when({ type: 'DeleteTrack' })).toEqual([]);
    expect(() => when({ type: 'UnlockTrack', via: 'credit' })).toThrow(
      expect.objectContaining({ code: 'TRACKS.NOT_FOUND' }),
    );
  });
});

describe('demo tracks', () => {
  it('arrive processed and unlocked, once', () => {
    const provision: TrackCommand = {
      type: 'ProvisionDemo',
      upload: upload({ isDemo: true, originalKey: 'demo/v1/mastering/original' }),
      options: { preset: null, mode: null },
      files: { preview: 'demo/v1/mastering/preview', master: 'demo/v1/mastering/master' },
      stems: null,
    };
    const { events, state, when } = given(provision);
    expect(events.map((e) => e.type)).toEqual(['TrackUploaded', 'PreviewReady', 'TrackUnlocked']);
    expect(state).toMatchObject({ status: 'MASTER_READY', unlocked: true, isDemo: true, resultReady: true });
    expect(when(provision)).toEqual([]);
    expect(() => when({ type: 'CancelProcessing' })).toThrow(
      expect.objectContaining({ code: 'TRACKS.NOT_PROCESSING' }),
    );
  });
});
