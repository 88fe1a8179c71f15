import JSZip from 'jszip';
import { describe, expect, it, jest } from '@jest/globals';
import { buildStemsZip, stemEntryName, stemsBaseName, StemsDownloadError, stemsZipName, zipStems } from './stemsZip';

/** A small but real WAV-like payload: every byte value, so any corruption shows. */
function payload(seed: number, size = 4096): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed) % 256;
  return bytes;
}

describe('stems archive names (spec §7)', () => {
  it('names the zip and its files after the track without extension or HTML', () => {
    expect(stemsBaseName('<b>Ndanane</b> live.mp3')).toBe('Ndanane live');
    expect(stemsZipName('Ndanane live.wav')).toBe('Ndanane live_stems.zip');
    expect(stemEntryName('Ndanane live.wav', 'vocals')).toBe('Ndanane live_vocals.wav');
    expect(stemEntryName('Ndanane live.wav', 'original')).toBe('Ndanane live_original.wav');
  });

  it('keeps inner dots, drops only the last extension, and never yields an empty or unsafe name', () => {
    expect(stemsBaseName('feat. Awa v1.2.wav')).toBe('feat. Awa v1.2');
    expect(stemsBaseName('no extension')).toBe('no extension');
    expect(stemsBaseName('<i></i>.wav')).toBe('track');
    expect(stemsBaseName('AC/DC: "Live"?.wav')).toBe('AC_DC_ _Live__');
  });
});

describe('building the stems archive', () => {
  it('makes a real zip that reopens with every file under its name, bytes intact', async () => {
    const files = { vocals: payload(1), drums: payload(2), original: payload(3, 10_000) };
    const { name, blob } = await zipStems(
      'Song.mp3',
      Object.entries(files).map(([stem, bytes]) => ({ stem, blob: new Blob([bytes]) })),
    );
    expect(name).toBe('Song_stems.zip');
    const zip = await JSZip.loadAsync(await blob.arrayBuffer());
    expect(Object.keys(zip.files).sort()).toEqual(['Song_drums.wav', 'Song_original.wav', 'Song_vocals.wav']);
    for (const [stem, bytes] of Object.entries(files)) {
      const entry = zip.file(`Song_${stem}.wav`);
      expect(new Uint8Array((await entry?.async('uint8array')) ?? [])).toEqual(bytes);
    }
  });

  it('fetches each file through the given fetch and zips them all', async () => {
    const fetchFile = jest.fn(async (url: string) => new Blob([new TextEncoder().encode(url)]));
    const { blob } = await buildStemsZip(
      'Track.wav',
      [
        { stem: 'bass', url: '/api/audio/track/t1/stream/bass' },
        { stem: 'original', url: '/api/audio/track/t1/stream/original-wav' },
      ],
      fetchFile,
    );
    expect(fetchFile.mock.calls.map(([url]) => url)).toEqual([
      '/api/audio/track/t1/stream/bass',
      '/api/audio/track/t1/stream/original-wav',
    ]);
    const zip = await JSZip.loadAsync(await blob.arrayBuffer());
    expect(await zip.file('Track_original.wav')?.async('string')).toBe('/api/audio/track/t1/stream/original-wav');
  });

  it('fails the whole download when one file cannot be fetched', async () => {
    const fetchFile = async (url: string) => {
      if (url.endsWith('drums')) throw new Error('403');
      return new Blob(['x']);
    };
    const failure = buildStemsZip(
      'T.wav',
      [
        { stem: 'vocals', url: 'vocals' },
        { stem: 'drums', url: 'drums' },
      ],
      fetchFile,
    );
    await expect(failure).rejects.toBeInstanceOf(StemsDownloadError);
    await expect(failure).rejects.toMatchObject({ failure: 'download', message: 'Failed to download stems' });
  });

  it('reports a zip failure apart from a download failure', async () => {
    // A "blob" whose bytes cannot be read makes the archive, not the download, fail.
    const unreadable = { arrayBuffer: () => Promise.reject(new Error('read error')) } as unknown as Blob;
    const failure = buildStemsZip('T.wav', [{ stem: 'vocals', url: 'vocals' }], async () => unreadable);
    await expect(failure).rejects.toMatchObject({ failure: 'zip', message: 'Failed to generate zip file' });
  });
});
