import { ORIGINAL_WAV, stemPreviewType } from '../../contracts/files';
import type { TrackDocument } from '../../contracts/queries';
import type { StreamUrls, Track } from '@kora/contracts';

/** Strips every HTML tag from a name before it is shown (names are stored exactly as given). */
export function stripTags(text: string): string {
  return text.replace(/<[^>]*>?/g, '').trim();
}

/** A track as the client sees it (the spec's track/work entity, `Track` of the contracts). */
export function trackView(doc: TrackDocument): Track {
  const stream = (type: string): string => `/api/audio/track/${doc._id}/stream/${type}`;
  const stems = stemUrls(doc, stream);
  const preview = doc.files.preview ? stream('preview') : null;
  const master = doc.unlocked && doc.files.master ? stream('master') : null;
  const urls: StreamUrls = { original: stream('original'), preview, master, stems };
  return {
    id: doc._id,
    audioId: doc._id,
    filename: stripTags(doc.filename),
    format: doc.format,
    service: doc.service,
    mode: doc.options.mode,
    preset: doc.options.preset,
    status: doc.status,
    error: doc.error?.message ?? null,
    errorCode: doc.error?.code ?? null,
    progress: doc.progress,
    createdAt: doc.createdAt,
    isDemo: doc.isDemo,
    isVideo: doc.isVideo,
    unlocked: doc.unlocked,
    creditsCost: 1,
    fileSize: doc.fileSize,
    durationSec: doc.durationSec,
    originalUrl: urls.original,
    previewUrl: preview,
    masterUrl: master,
    stems: urls.stems,
    streamUrls: urls,
  };
}

/**
 * The stems by type in the spec's stem order (as the engine recorded them), then the original they were separated
 * from. Locked, each plays its 30-second preview (the original its preview, cut at the same window); unlocked, the
 * full files.
 */
function stemUrls(doc: TrackDocument, stream: (type: string) => string): Record<string, string> {
  if (doc.stems.length === 0) return {};
  const urls = Object.fromEntries(doc.stems.map((stem) => [stem, stream(doc.unlocked ? stem : stemPreviewType(stem))]));
  const original = doc.unlocked && Object.hasOwn(doc.files, ORIGINAL_WAV) ? ORIGINAL_WAV : 'preview';
  if (Object.hasOwn(doc.files, original)) urls.original = stream(original);
  return urls;
}
