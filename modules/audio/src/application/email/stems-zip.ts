import type { BlobStore } from '@kora/kernel';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { ORIGINAL_WAV, stemFile } from '../../contracts/files';

/** One file of the zip: its name inside, its blob and its size (from `stat`). */
export interface ZipEntry {
  readonly name: string;
  readonly key: string;
  readonly size: number;
}

/** Sizes and offsets of a plain (not ZIP64) archive are 32-bit. */
const ZIP32_LIMIT = 0xffff_ffff;
/** Bit 3: CRC and sizes follow the data (the CRC is known only once streamed); bit 11: names are UTF-8. */
const FLAGS = 0x0008 | 0x0800;

/** How many bytes the archive takes: known before the first byte, so the answer carries its length. */
export function zipLength(entries: readonly ZipEntry[]): number {
  return (
    entries.reduce((sum, entry) => {
      const name = Buffer.byteLength(entry.name);
      return sum + 30 + name + entry.size + 16 + 46 + name;
    }, 0) + 22
  );
}

/** Whether the files fit a plain zip (WAV stems of a long upload could reach 4 GiB; then only single links). */
export function fitsZip(entries: readonly ZipEntry[]): boolean {
  return zipLength(entries) < ZIP32_LIMIT;
}

function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: (Math.max(date.getFullYear() - 1980, 0) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * A zip of the blobs, stored without compression (WAV barely compresses, and it streams at disk speed): each file
 * is read once, its CRC computed on the way and written after it, then the central directory.
 */
export function zipBlobs(blobs: BlobStore, entries: readonly ZipEntry[], modified: Date): Readable {
  const stamp = dosDateTime(modified);
  async function* archive(): AsyncGenerator<Buffer> {
    const central: Buffer[] = [];
    let offset = 0;
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(FLAGS, 6);
      local.writeUInt16LE(0, 8); // stored
      local.writeUInt16LE(stamp.time, 10);
      local.writeUInt16LE(stamp.date, 12);
      // CRC and sizes (14..25) stay 0: the data descriptor carries them.
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      yield local;
      yield name;
      let crc = 0;
      let size = 0;
      for await (const chunk of await blobs.read(entry.key)) {
        const bytes = chunk as Buffer;
        crc = crc32(bytes, crc);
        size += bytes.length;
        yield bytes;
      }
      if (size !== entry.size) throw new Error(`Blob ${entry.key} changed size while zipped`);
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      descriptor.writeUInt32LE(size, 8);
      descriptor.writeUInt32LE(size, 12);
      yield descriptor;
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(FLAGS, 8);
      header.writeUInt16LE(0, 10);
      header.writeUInt16LE(stamp.time, 12);
      header.writeUInt16LE(stamp.date, 14);
      header.writeUInt32LE(crc >>> 0, 16);
      header.writeUInt32LE(size, 20);
      header.writeUInt32LE(size, 24);
      header.writeUInt16LE(name.length, 28);
      // extra, comment, disk, internal and external attributes (30..41) stay 0.
      header.writeUInt32LE(offset, 42);
      central.push(header, name);
      offset += 30 + name.length + size + 16;
    }
    const directory = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    yield directory;
    yield end;
  }
  return Readable.from(archive(), { objectMode: false });
}

/**
 * The entries of a stems zip as the stems player's "Download all" names them: `{base}_{stem}.wav` for each stem,
 * then `{base}_original.wav`. Null when a file is missing or the whole would not fit a plain zip.
 */
export async function stemsZipEntries(
  blobs: BlobStore,
  track: { filename: string; stems: readonly string[]; files: Readonly<Record<string, string>> },
): Promise<ZipEntry[] | null> {
  const base = track.filename.replace(/<[^>]*>/g, '').replace(/\.[^.]*$/, '') || 'kora';
  const wanted = [
    ...track.stems
      .filter((stem) => stem !== 'original')
      .map((stem) => ({ file: stemFile(stem), name: `${base}_${stem}.wav` })),
    { file: ORIGINAL_WAV, name: `${base}_original.wav` },
  ];
  const entries: ZipEntry[] = [];
  for (const { file, name } of wanted) {
    const key = Object.hasOwn(track.files, file) ? track.files[file] : undefined;
    const info = key ? await blobs.stat(key) : null;
    if (!key || !info) return null;
    entries.push({ name, key, size: info.size });
  }
  return entries.length > 1 && fitsZip(entries) ? entries : null;
}
