import type { LocalisedText } from '@kora/kernel';

/** How long an e-mailed mix link works (as a track's). */
export const MIX_LINK_DAYS = 7;

/** What a signed mix link says: the session, its owner, the file (a key of the session's `files`), the expiry (s). */
export interface MixLinkClaims {
  m: string;
  u: string;
  f: string;
  e: number;
}

/** The files a mix result offers, as link labels: the preview while locked, the mix and each processed track after. */
export function mixDownloads(
  files: Readonly<Record<string, string>>,
  tracks: ReadonlyArray<{ trackId: string; filename: string }>,
  unlocked: boolean,
): Array<{ file: string; label: LocalisedText }> {
  if (!unlocked) return files.preview ? [{ file: 'preview', label: { en: 'Preview', fr: 'Aperçu' } }] : [];
  const offered: Array<{ file: string; label: LocalisedText }> = [];
  if (files.mix) offered.push({ file: 'mix', label: { en: 'Final mix (WAV)', fr: 'Mix final (WAV)' } });
  for (const track of tracks) {
    if (!files[`track-${track.trackId}`]) continue;
    const name = track.filename.replace(/<[^>]*>?/g, '');
    offered.push({ file: `track-${track.trackId}`, label: { en: `Track: ${name}`, fr: `Piste : ${name}` } });
  }
  return offered;
}
