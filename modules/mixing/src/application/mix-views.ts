import type { MixSessionDocument } from '../contracts/queries';

const stripTags = (text: string): string => text.replace(/<[^>]*>?/g, '').trim();

export interface MixTrackView {
  id: string;
  trackId: string;
  filename: string;
  instrumentGroup: string;
  presenceSetting: string;
  panPreference: string;
  reverbPreference: string;
  trackDetails: { duration: number; fileSize: number; filename: string };
  sampleRate: number;
  url: string;
}

export interface MixSessionView {
  id: string;
  name: string;
  mixingStyle: string;
  sampleRate: 44100 | 48000;
  status: string;
  error: string | null;
  errorCode: string | null;
  unlocked: boolean;
  tracks: MixTrackView[];
  createdAt: string;
  updatedAt: string;
}

const stream = (sessionId: string, type: string): string => `/api/mixing/sessions/${sessionId}/stream/${type}`;

export function sessionView(doc: MixSessionDocument): MixSessionView {
  return {
    id: doc._id,
    name: stripTags(doc.name),
    mixingStyle: doc.mixingStyle,
    sampleRate: doc.sampleRate,
    status: doc.status,
    error: doc.error?.message ?? null,
    errorCode: doc.error?.code ?? null,
    unlocked: doc.unlocked,
    tracks: doc.tracks.map((track) => ({
      id: track.trackId,
      trackId: track.trackId,
      filename: stripTags(track.filename),
      ...track.settings,
      trackDetails: { duration: track.durationSec, fileSize: track.fileSize, filename: stripTags(track.filename) },
      sampleRate: track.sampleRate,
      url: stream(doc._id, `original-${track.trackId}`),
    })),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** The board's rows once the mix exists: the final mix first, then each track (processed once unlocked). */
export function resultTracks(
  doc: MixSessionDocument,
): Array<{ trackId: string; name: string; type: string; url: string }> {
  if (doc.status !== 'COMPLETED') return [];
  const rows = [
    {
      trackId: 'mix',
      name: stripTags(doc.name),
      type: 'mix',
      url: stream(doc._id, doc.unlocked ? 'mix' : 'preview'),
    },
  ];
  for (const track of doc.tracks) {
    rows.push({
      trackId: track.trackId,
      name: stripTags(track.filename),
      type: track.settings.instrumentGroup,
      url: stream(
        doc._id,
        doc.unlocked && doc.files[`track-${track.trackId}`] ? `track-${track.trackId}` : `original-${track.trackId}`,
      ),
    });
  }
  return rows;
}
