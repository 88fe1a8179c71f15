import type { BlobStore, LocalisedText } from '@kora/kernel';
import type { TrackFiles, TrackService } from '../../contracts/events';
import { stemFile, stemPreviewFile } from '../../contracts/files';
import { stemsZipEntries } from './stems-zip';

export type { LocalisedText };

/** The pseudo-file of a signed link that answers every stem and the original WAV as one zip, made on the fly. */
export const STEMS_ZIP = 'stems.zip';

/** A file a result offers, as a link label in both languages. */
export interface ResultFile {
  /** The `files` key the signed link names (or `STEMS_ZIP`). */
  readonly file: string;
  readonly label: LocalisedText;
}

/** What the result screen needs to know about a track to say which files it offers. */
export interface ResultShape {
  readonly service: TrackService;
  readonly isVideo: boolean;
  readonly stems: readonly string[];
  readonly files: TrackFiles;
}

/** Stem names as the stems player shows them (web/src/locales/{en,fr}/stems.json, `stem`). */
const STEM_LABELS: Record<string, LocalisedText> = {
  original: { en: 'Original', fr: 'Original' },
  vocals: { en: 'Vocals', fr: 'Voix' },
  drums: { en: 'Drums', fr: 'Batterie' },
  bass: { en: 'Bass', fr: 'Basse' },
  piano: { en: 'Piano', fr: 'Piano' },
  guitars: { en: 'Guitars', fr: 'Guitares' },
  strings: { en: 'Strings', fr: 'Cordes' },
  wind: { en: 'Wind', fr: 'Vents' },
  keys: { en: 'Keys', fr: 'Claviers' },
  other: { en: 'Other', fr: 'Autres' },
  lead_vocals: { en: 'Lead vocals', fr: 'Voix principale' },
  backing_vocals: { en: 'Backing vocals', fr: 'Chœurs' },
  kick_drums: { en: 'Kick', fr: 'Grosse caisse' },
  snare_drums: { en: 'Snare', fr: 'Caisse claire' },
  hi_hats: { en: 'Hi-hats', fr: 'Charleston' },
  hihat_drums: { en: 'Hi-hats', fr: 'Charleston' },
  cymbals: { en: 'Cymbals', fr: 'Cymbales' },
  toms: { en: 'Toms', fr: 'Toms' },
  acoustic_guitars: { en: 'Acoustic guitars', fr: 'Guitares acoustiques' },
  electric_guitars: { en: 'Electric guitars', fr: 'Guitares électriques' },
};

export function stemLabel(stem: string): LocalisedText {
  if (Object.hasOwn(STEM_LABELS, stem)) return STEM_LABELS[stem]!;
  const name = stem.replace(/_/g, ' ');
  return { en: name, fr: name };
}

/**
 * The downloads the result screen offers once the track is unlocked: both WAV masters of a mastering (44.1 kHz
 * 16-bit and 48 kHz 24-bit), the enhanced file, or every stem and the zip of them all (with the original, as
 * "Download all" makes it). Only files that exist are listed.
 */
export function fullResultFiles(track: ResultShape): ResultFile[] {
  let offered: ResultFile[];
  if (track.service === 'AI_MASTERING') {
    offered = [
      { file: 'master', label: { en: 'WAV 44.1 kHz / 16-bit', fr: 'WAV 44,1 kHz / 16 bits' } },
      { file: 'master48', label: { en: 'WAV 48 kHz / 24-bit', fr: 'WAV 48 kHz / 24 bits' } },
    ];
  } else if (track.service === 'AUDIO_ENHANCEMENT') {
    offered = [
      {
        file: 'master',
        label: track.isVideo
          ? { en: 'Enhanced video', fr: 'Vidéo améliorée' }
          : { en: 'Enhanced file (WAV)', fr: 'Fichier amélioré (WAV)' },
      },
    ];
  } else {
    const stems = track.stems.filter((stem) => Object.hasOwn(track.files, stemFile(stem)));
    offered = stems.map((stem) => ({ file: stemFile(stem), label: stemLabel(stem) }));
    if (stems.length > 0) {
      offered.push({ file: STEMS_ZIP, label: { en: 'All stems (zip)', fr: 'Toutes les pistes (zip)' } });
    }
    return offered;
  }
  return offered.filter((entry) => Object.hasOwn(track.files, entry.file));
}

/**
 * What a locked result may send: its free previews only (the preview, or each stem's preview), never a file that
 * needs the unlock.
 */
export function previewFiles(track: ResultShape): ResultFile[] {
  if (track.service === 'STEM_SEPARATION') {
    return track.stems
      .filter((stem) => Object.hasOwn(track.files, stemPreviewFile(stem)))
      .map((stem) => {
        const name = stemLabel(stem);
        return { file: stemPreviewFile(stem), label: { en: `${name.en} (preview)`, fr: `${name.fr} (aperçu)` } };
      });
  }
  return Object.hasOwn(track.files, 'preview') ? [{ file: 'preview', label: { en: 'Preview', fr: 'Aperçu' } }] : [];
}

/** Files a signed link may only answer once the track is unlocked. */
export function needsUnlock(file: string): boolean {
  return file === 'master' || file === 'master48' || file === STEMS_ZIP || file.startsWith('stem-');
}

/** `fullResultFiles`, less the zip when its files are not all there or would not fit a plain zip. */
export async function offeredDownloads(
  blobs: BlobStore,
  track: ResultShape & { filename: string },
): Promise<ResultFile[]> {
  const full = fullResultFiles(track);
  if (!full.some((entry) => entry.file === STEMS_ZIP) || (await stemsZipEntries(blobs, track))) return full;
  return full.filter((entry) => entry.file !== STEMS_ZIP);
}
