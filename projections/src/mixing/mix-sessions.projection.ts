import { type MixEvent, MIX_EVENT_TYPES, type MixSessionDocument, type MixTrackDocument } from '@kora/mixing/contracts';
import { defineProjection, streamId } from '@kora/kernel';

/** One document per mixing session, with its tracks, settings, status and result files. */
export const mixSessionsProjection = defineProjection<MixEvent, MixSessionDocument>({
  name: 'mix-sessions',
  version: 2, // 2: a mix the user cancelled is CANCELLED (was FAILED)
  collection: 'mix_sessions',
  indexes: [{ fields: { userId: 1, createdAt: -1 } }],
  handles: MIX_EVENT_TYPES,
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    const at = event.metadata.occurredAt;
    if (event.type === 'MixSessionCreated') {
      const { sessionId, ownerId, name, mixingStyle, sampleRate } = event.data;
      return {
        _id: sessionId,
        userId: ownerId,
        name,
        mixingStyle,
        sampleRate,
        status: 'CREATED',
        error: null,
        tracks: [],
        files: {},
        jobId: null,
        unlocked: false,
        createdAt: at,
        updatedAt: at,
      };
    }
    if (!current) return null;
    const edited = { ...current, status: 'CREATED' as const, error: null, files: {}, jobId: null, updatedAt: at };
    switch (event.type) {
      case 'MixSessionChanged':
        return { ...edited, mixingStyle: event.data.mixingStyle, sampleRate: event.data.sampleRate };
      case 'MixTrackAdded':
        return { ...edited, tracks: [...current.tracks, event.data] };
      case 'MixTrackSettingsChanged':
        return {
          ...edited,
          tracks: current.tracks.map((track) =>
            track.trackId === event.data.trackId ? { ...track, settings: event.data.settings } : track,
          ),
        };
      case 'MixTrackRemoved':
        return { ...edited, tracks: current.tracks.filter((track) => track.trackId !== event.data.trackId) };
      case 'MixRequested':
        return { ...current, status: 'PROCESSING', error: null, jobId: event.data.jobId, updatedAt: at };
      case 'MixStarted':
        return { ...current, updatedAt: at };
      case 'MixReady':
        return { ...current, status: 'COMPLETED', files: event.data.files, updatedAt: at };
      case 'MixFailed':
        return {
          ...current,
          status: 'FAILED',
          error: { code: event.data.code, message: event.data.message },
          updatedAt: at,
        };
      case 'MixCancelled':
        return {
          ...current,
          status: 'CANCELLED',
          error: { code: 'PROCESSING.CANCELLED', message: 'The mix was cancelled.' },
          updatedAt: at,
        };
      case 'MixUnlocked':
        return { ...current, unlocked: true, updatedAt: at };
    }
  },
});

/** Track id to session, for the routes addressed by a mix track's id. */
export const mixTracksProjection = defineProjection<MixEvent, MixTrackDocument>({
  name: 'mix-tracks',
  version: 1,
  collection: 'mix_tracks',
  handles: ['MixTrackAdded', 'MixTrackRemoved'],
  target: (event) =>
    event.type === 'MixTrackAdded' || event.type === 'MixTrackRemoved' ? { id: event.data.trackId } : null,
  evolve(_current, event) {
    if (event.type !== 'MixTrackAdded') return null;
    return { _id: event.data.trackId, sessionId: streamId(event.streamName), userId: event.metadata.userId };
  },
});
