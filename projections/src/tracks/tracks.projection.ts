import {
  CANCELLED_ERROR,
  processingStatus,
  resultStatus,
  statusOnUnlock,
  type TrackDocument,
  type TrackEvent,
  TRACK_EVENT_TYPES,
} from '@kora/audio/contracts';
import { defineProjection, streamId } from '@kora/kernel';

/** One document per live track: the recent-tracks list, the track screen and the status endpoint. */
export const tracksProjection = defineProjection<TrackEvent, TrackDocument>({
  name: 'tracks',
  // 2: an unlocked result is MASTER_READY for every service (was COMPLETED for stems and enhancement).
  // 3: a job the user cancelled is CANCELLED (was FAILED).
  version: 3,
  collection: 'tracks',
  // The list's shapes, in the list's order (newest first, then id): the first page reads ten index entries and
  // the count never opens a document.
  indexes: [
    { fields: { userId: 1, isDemo: 1, createdAt: -1, _id: 1 } },
    { fields: { userId: 1, service: 1, isDemo: 1, createdAt: -1, _id: 1 } },
    { fields: { userId: 1, service: 1, status: 1 } },
  ],
  handles: TRACK_EVENT_TYPES,
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    const at = event.metadata.occurredAt;
    if (event.type === 'TrackUploaded') {
      const d = event.data;
      return {
        _id: d.trackId,
        userId: d.ownerId,
        filename: d.filename,
        format: d.format,
        contentType: d.contentType,
        service: d.service,
        options: { preset: null, mode: null },
        status: 'UPLOADING',
        error: null,
        isDemo: d.isDemo,
        isVideo: d.isVideo,
        unlocked: false,
        fileSize: d.fileSize,
        durationSec: d.durationSec,
        sampleRate: d.sampleRate,
        channels: d.channels,
        files: { original: d.originalKey },
        stems: [],
        jobId: null,
        attempt: 0,
        progress: 0,
        processingStartedAt: null,
        createdAt: at,
        updatedAt: at,
      };
    }
    if (!current) return null;
    const next = { ...current, updatedAt: at };
    switch (event.type) {
      case 'ProcessingRequested':
        return {
          ...next,
          jobId: event.data.jobId,
          options: event.data.options,
          status: processingStatus(event.data.service),
        };
      case 'ProcessingStarted':
        return { ...next, attempt: event.data.attempt, processingStartedAt: at, progress: 0 };
      case 'ProcessingProgressed':
        return { ...next, status: event.data.status, progress: event.data.progress };
      case 'PreviewReady':
      case 'StemsReady': {
        const stems = event.type === 'StemsReady' ? event.data.stems : [];
        const status = resultStatus(event.data.service, current.unlocked);
        return { ...next, files: { ...current.files, ...event.data.files }, stems, progress: 1, status };
      }
      case 'ProcessingFailed':
        return { ...next, status: 'FAILED', error: { code: event.data.code, message: event.data.message } };
      case 'ProcessingCancelled':
        return { ...next, status: 'CANCELLED', error: { ...CANCELLED_ERROR } };
      case 'TrackUnlocked':
        return { ...next, unlocked: true, status: statusOnUnlock(current.service, current.status) };
      case 'MasterReady':
        return { ...next, status: resultStatus(event.data.service, true) };
      case 'TrackDeleted':
        return null;
      case 'TrackResultEmailed':
        return current;
    }
  },
});
