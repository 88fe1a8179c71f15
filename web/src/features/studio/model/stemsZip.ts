/**
 * The "download all" archive of a stem separation (spec §7): every full stem and the original, fetched, zipped in
 * the browser and saved as `{basename}_stems.zip`, holding `{basename}_{stem}.wav` and `{basename}_original.wav`.
 * JSZip is loaded on first use, so it stays out of the bundle until someone downloads.
 */

/** The track's name without HTML tags or extension, safe as a file name (`track` when nothing is left). */
export function stemsBaseName(filename: string): string {
  const text = filename.replace(/<[^>]*>?/g, '').trim();
  const dot = text.lastIndexOf('.');
  const bare = dot >= 0 ? text.slice(0, dot) : text;
  // Characters no file system accepts in a name, and control characters.
  // eslint-disable-next-line no-control-regex
  const safe = bare.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim();
  return safe || 'track';
}

export const stemsZipName = (filename: string): string => `${stemsBaseName(filename)}_stems.zip`;

/** The name of one file inside the archive (`original` for the original). */
export const stemEntryName = (filename: string, stem: string): string => `${stemsBaseName(filename)}_${stem}.wav`;

export interface StemFile {
  /** The stem type, or `original`. */
  stem: string;
  url: string;
}

export type StemsDownloadFailure = 'download' | 'zip';

/** A failed "download all": `download` when a file could not be fetched, `zip` when the archive could not be made. */
export class StemsDownloadError extends Error {
  constructor(
    readonly failure: StemsDownloadFailure,
    cause: unknown,
  ) {
    super(failure === 'download' ? 'Failed to download stems' : 'Failed to generate zip file', { cause });
    this.name = 'StemsDownloadError';
  }
}

/** Zips the given files (already fetched) under their archive names. WAV barely deflates: they are stored. */
export async function zipStems(
  filename: string,
  files: ReadonlyArray<{ stem: string; blob: Blob }>,
): Promise<{ name: string; blob: Blob }> {
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  for (const { stem, blob } of files) {
    zip.file(stemEntryName(filename, stem), await blob.arrayBuffer(), { binary: true });
  }
  const blob = await zip.generateAsync({ type: 'blob', compression: 'STORE', mimeType: 'application/zip' });
  return { name: stemsZipName(filename), blob };
}

/**
 * Fetches every file (all at once) and zips them. Any fetch failing fails the whole download (`download`), a zip
 * failing gives `zip`: a partial archive would pass for the whole set.
 */
export async function buildStemsZip(
  filename: string,
  files: readonly StemFile[],
  fetchFile: (url: string) => Promise<Blob>,
): Promise<{ name: string; blob: Blob }> {
  let fetched: Array<{ stem: string; blob: Blob }>;
  try {
    fetched = await Promise.all(files.map(async ({ stem, url }) => ({ stem, blob: await fetchFile(url) })));
  } catch (error) {
    throw new StemsDownloadError('download', error);
  }
  try {
    return await zipStems(filename, fetched);
  } catch (error) {
    throw new StemsDownloadError('zip', error);
  }
}

/** Hands a blob to the browser as a download under the given name. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by now in every browser; a minute leaves room for slow disks.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
