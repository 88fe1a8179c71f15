import type { TrackEvent } from '@kora/audio/contracts';
import type { UnlockDocument } from '@kora/billing/contracts';
import { defineProjection, streamId } from '@kora/kernel';
import type { MixEvent } from '@kora/mixing/contracts';

/** The results unlocked: tracks and mix sessions, with what paid for them. */
export const unlockedTracksProjection = defineProjection<TrackEvent | MixEvent, UnlockDocument>({
  name: 'unlocked-tracks',
  version: 1,
  collection: 'unlocked_tracks',
  indexes: [{ fields: { userId: 1, unlockedAt: -1 } }],
  handles: ['TrackUnlocked', 'MixUnlocked', 'TrackDeleted'],
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    if (event.type === 'TrackDeleted') return null;
    if (event.type !== 'TrackUnlocked' && event.type !== 'MixUnlocked') return current;
    return {
      _id: streamId(event.streamName),
      userId: event.metadata.userId,
      kind: event.type === 'TrackUnlocked' ? 'track' : 'mix',
      via: event.data.via,
      causationId: event.metadata.causationId,
      unlockedAt: event.metadata.occurredAt,
    };
  },
});
