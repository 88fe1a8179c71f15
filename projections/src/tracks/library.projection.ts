import type { LibraryDocument, TrackEvent } from '@kora/audio/contracts';
import { defineProjection, streamId } from '@kora/kernel';

/**
 * `Song (2).wav` and `song.wav` share the key `song.wav`: copies of one file (the same key and the same size, see
 * GetLibrary) show as the newest of them.
 */
export function collapseKey(filename: string): string {
  return filename
    .replace(/ \(\d+\)(?=(\.[^.]*)?$)/, '')
    .trim()
    .toLowerCase();
}

/** The files a user uploaded themselves (demo tracks excluded), newest first. */
export const libraryProjection = defineProjection<TrackEvent, LibraryDocument>({
  name: 'library',
  version: 2,
  collection: 'library',
  indexes: [{ fields: { userId: 1, createdAt: -1 } }],
  handles: ['TrackUploaded', 'TrackDeleted'],
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    switch (event.type) {
      case 'TrackUploaded':
        if (event.data.isDemo) return null;
        return {
          _id: event.data.trackId,
          userId: event.data.ownerId,
          filename: event.data.filename,
          collapseKey: collapseKey(event.data.filename),
          fileSize: event.data.fileSize,
          format: event.data.format,
          isVideo: event.data.isVideo,
          durationSec: event.data.durationSec,
          service: event.data.service,
          createdAt: event.metadata.occurredAt,
        };
      case 'TrackDeleted':
        return null;
      default:
        return current;
    }
  },
});
