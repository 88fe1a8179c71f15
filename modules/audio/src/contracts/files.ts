/**
 * How a track's files are named in its `files` map (the keys of `TrackFiles`), and the stream types a client asks
 * for (`GET /api/audio/track/{id}/stream/{type}`). Said once here for the job handler, the demo library and the
 * stream route.
 */

/** A separated stem, full length (locked until the track is unlocked). */
export const stemFile = (stem: string): string => `stem-${stem}`;

/** A stem's 30-second MP3 preview (free). */
export const stemPreviewFile = (stem: string): string => `preview-${stem}`;

/** The original decoded to WAV beside the stems: same rate and length, so it lines up with them on the board. */
export const ORIGINAL_WAV = 'original-wav';

/** The stream type of a stem's preview. */
export const stemPreviewType = (stem: string): string => `${stem}-preview`;

/** Results any client may stream once the track is unlocked (besides the stems). */
export const LOCKED_FILES: readonly string[] = ['master', 'master48'];

/** Files that stream by their own name. */
export const NAMED_FILES: readonly string[] = ['original', 'preview', 'master', 'master48', 'report', ORIGINAL_WAV];
