import type { MixerDecisions, MixResultRow, MixSession } from '@kora/contracts';
import type { MixSessionDocument } from '../../contracts/queries';

const stripTags = (text: string): string => text.replace(/<[^>]*>?/g, '').trim();

/** The session as the API sends it (`@kora/contracts`). */
export type MixSessionView = MixSession;

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

interface ReportTrack {
  name?: string;
  decisions?: {
    gainDb?: number;
    targetLufs?: number;
    eq?: MixerDecisions['eq'];
    compression?: (MixerDecisions['compression'] & Record<string, unknown>) | null;
    pan?: { position?: number; width?: number; reason?: string };
    reverbSendDb?: number | null;
  };
}

const round = (value: number | undefined, digits = 1): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : 0;

/** Reads each track's decisions out of the engine's `report.json`, keyed by the track's file name. */
export function mixerDecisions(report: unknown): Map<string, MixerDecisions> {
  const decided = new Map<string, MixerDecisions>();
  const tracks = (report as { tracks?: unknown } | null)?.tracks;
  if (!Array.isArray(tracks)) return decided;
  for (const entry of tracks as ReportTrack[]) {
    const d = entry?.decisions;
    if (typeof entry?.name !== 'string' || !d) continue;
    const c = d.compression;
    decided.set(entry.name, {
      gainDb: round(d.gainDb),
      targetLufs: round(d.targetLufs),
      eq: (d.eq ?? []).map((band) => ({
        type: band.type,
        freqHz: Math.round(band.freqHz),
        gainDb: round(band.gainDb),
        q: round(band.q, 2),
        ...(typeof band.purpose === 'string' ? { purpose: band.purpose } : {}),
        ...(typeof band.maskedBy === 'string' ? { maskedBy: band.maskedBy } : {}),
        reason: band.reason,
      })),
      compression: c
        ? {
            thresholdDb: round(c.thresholdDb),
            ratio: round(c.ratio),
            attackMs: round(c.attackMs),
            releaseMs: round(c.releaseMs),
            meanReductionDb: round(c.meanReductionDb),
          }
        : null,
      pan: { position: round(d.pan?.position, 2), width: round(d.pan?.width, 2), reason: d.pan?.reason ?? '' },
      reverbSendDb: typeof d.reverbSendDb === 'number' ? round(d.reverbSendDb) : null,
    });
  }
  return decided;
}

/** The board's rows once the mix exists: the final mix first, then each track (processed once unlocked). */
export function resultTracks(
  doc: MixSessionDocument,
  decisions: Map<string, MixerDecisions> = new Map(),
): MixResultRow[] {
  if (doc.status !== 'COMPLETED') return [];
  const rows: MixResultRow[] = [
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
      mixer: decisions.get(track.filename) ?? null,
      url: stream(
        doc._id,
        doc.unlocked && doc.files[`track-${track.trackId}`] ? `track-${track.trackId}` : `original-${track.trackId}`,
      ),
    });
  }
  return rows;
}
