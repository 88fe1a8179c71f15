import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { CodedError } from '../../errors';
import {
  FileTooLargeError,
  FileTooSmallError,
  UploadLengthRequiredError,
  UploadMetadataError,
  UploadNotFoundError,
  UploadOffsetError,
  UploadIncompleteError,
  UploadPastLengthError,
  UploadPurposeError,
} from '../../upload-errors';

/**
 * Resumable uploads, the tus protocol's server side (tus.io, version 1.0.0 with its creation, termination and
 * expiration extensions). A file is created with its length and metadata, then its bytes are appended from the offset
 * the server has, as many times as the network needs; a connection that drops keeps every byte written before the
 * drop. Once whole, the file is claimed by the module it was sent for (a track, a reference, a mixing track), which
 * checks it by content as an upload in one request is checked, and moves it into the blob store.
 *
 * Partial files live in a directory of this node (`UPLOAD_STAGING_DIR`), and an upload's state (who writes it, its
 * refusal) in this process: with several replicas, an upload's requests must reach one of them (docs/api.md). Every
 * partial file expires a day after its last byte.
 */
export const TUS_VERSION = '1.0.0';

/** What a module accepts for a purpose (`purpose` in the upload's metadata). */
export interface ResumablePurpose {
  /** The largest file it accepts, whatever the metadata. */
  readonly largest: number;
  /** The sizes accepted for these metadata; throws `UploadRejectedError` for metadata it does not accept. */
  limits(metadata: Readonly<Record<string, string>>): { min: number; max: number };
  /**
   * The file's first bytes (`HEAD_BYTES`, or the whole file when smaller) and its announced length: throws
   * `UploadRejectedError` to refuse the file there, before the rest is sent.
   */
  checkHead?(head: Buffer, length: number, metadata: Readonly<Record<string, string>>): void | Promise<void>;
}

export interface ResumableUpload {
  readonly id: string;
  readonly ownerId: string;
  readonly purpose: string;
  readonly length: number;
  /** Bytes the server has. */
  readonly offset: number;
  readonly metadata: Readonly<Record<string, string>>;
  readonly createdAt: number;
  /** When the partial file is swept, ms since the epoch (a day after its last byte). */
  readonly expiresAt: number;
}

/** A whole upload handed to its module: the file at `path` is its to move (the blob store's `putFile`). */
export interface ClaimedUpload {
  readonly path: string;
  readonly length: number;
  readonly filename: string;
  readonly metadata: Readonly<Record<string, string>>;
  /** Removes the file if it is still there (call it in a `finally`). */
  discard(): Promise<void>;
}

/** How long, and how many, refusals are remembered (`ResumableUploads.refuse`). */
const REFUSAL_KEPT_MS = 60 * 60 * 1000;
const MAX_REFUSALS = 10_000;

/** The bytes a purpose's `checkHead` sees. */
export const HEAD_BYTES = 64 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
const ID = /^[a-f0-9]{32}$/;
/** Metadata as the client may send it: a few short text values. */
const MAX_METADATA_KEYS = 16;
const MAX_METADATA_VALUE = 1024;

export interface ResumableUploadsOptions {
  readonly dir: string;
  /** How long a partial file is kept after its last byte, ms (a day). */
  readonly ttlMs?: number;
  /** Unfinished uploads kept per account: creating one more drops the oldest idle one (6). */
  readonly maxPendingPerOwner?: number;
  /** How long a new request for an upload waits for the one it supersedes to let go, ms (5 s). */
  readonly takeoverMs?: number;
  readonly now?: () => number;
}

interface Stored {
  id: string;
  ownerId: string;
  purpose: string;
  length: number;
  metadata: Record<string, string>;
  createdAt: number;
  expiresAt: number;
  /** Whether the purpose's head check passed. */
  checked: boolean;
}

interface Writer {
  stop(): void;
  done: Promise<void>;
}

/** `Upload-Metadata`: comma-separated `key base64value` pairs (a key alone has an empty value). */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (!header) return metadata;
  const pairs = header.split(',');
  if (pairs.length > MAX_METADATA_KEYS) throw invalidMetadata();
  for (const pair of pairs) {
    const [key, value = '', ...rest] = pair.trim().split(' ');
    if (!key || rest.length > 0 || !/^[A-Za-z0-9_.-]{1,64}$/.test(key) || key in metadata) throw invalidMetadata();
    if (value && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw invalidMetadata();
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    if (decoded.length > MAX_METADATA_VALUE) throw invalidMetadata();
    metadata[key] = decoded;
  }
  return metadata;
}

function invalidMetadata(): UploadMetadataError {
  return new UploadMetadataError();
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

export class ResumableUploads {
  private readonly purposes = new Map<string, ResumablePurpose>();
  private readonly uploads = new Map<string, Stored>();
  private readonly writers = new Map<string, Writer>();
  private readonly refused = new Map<string, { ownerId: string; error: unknown; until: number }>();
  private readonly ttlMs: number;
  private readonly maxPending: number;
  private readonly takeoverMs: number;
  private readonly now: () => number;
  private loaded: Promise<void> | null = null;

  constructor(private readonly options: ResumableUploadsOptions) {
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.maxPending = options.maxPendingPerOwner ?? 6;
    this.takeoverMs = options.takeoverMs ?? 5_000;
    this.now = options.now ?? Date.now;
    mkdirSync(options.dir, { recursive: true });
  }

  /** A module says what it accepts for `name` (the `purpose` in an upload's metadata). */
  registerPurpose(name: string, purpose: ResumablePurpose): void {
    if (this.purposes.has(name)) throw new Error(`Upload purpose ${name} is registered twice`);
    this.purposes.set(name, purpose);
  }

  /** The largest file any purpose accepts (the server's `Tus-Max-Size`). */
  get maxSize(): number {
    return Math.max(0, ...[...this.purposes.values()].map((purpose) => purpose.largest));
  }

  async create(ownerId: string, length: number, metadata: Record<string, string>): Promise<ResumableUpload> {
    await this.load();
    const purpose = this.purposes.get(metadata.purpose ?? '');
    if (!purpose) throw new UploadPurposeError();
    if (!Number.isSafeInteger(length) || length < 0) {
      throw new UploadLengthRequiredError();
    }
    const { min, max } = purpose.limits(metadata);
    if (length > max) {
      throw new FileTooLargeError(
        `The file is too large (at most ${max / 1024 / 1024} MB).`,
        { limitMb: max / 1024 / 1024 },
        'too_large',
      );
    }
    if (length < min) {
      throw new FileTooSmallError('The file is too small.', { limitMb: min / 1024 / 1024 });
    }
    await this.makeRoomFor(ownerId);
    const now = this.now();
    const stored: Stored = {
      id: randomBytes(16).toString('hex'),
      ownerId,
      purpose: metadata.purpose!,
      length,
      metadata,
      createdAt: now,
      expiresAt: now + this.ttlMs,
      checked: false,
    };
    await writeFile(this.partPath(stored.id), new Uint8Array(0), { flag: 'wx' });
    await this.persist(stored);
    this.uploads.set(stored.id, stored);
    return this.view(stored, 0);
  }

  async status(ownerId: string, id: string): Promise<ResumableUpload> {
    const stored = await this.owned(ownerId, id);
    return this.view(stored, await this.size(stored.id));
  }

  /**
   * Appends `body` at `offset`, which must be the server's. A request for an upload another request is still writing
   * (a connection the server has not yet seen drop, after the client moved to another network) takes over: the older
   * one stops where it is and the new one is answered from there. Bytes that arrive are kept even if the connection
   * then drops; bytes past the announced length refuse the request. The purpose's head check runs as soon as its
   * bytes are here: a refused file is removed at once, and the error thrown while the client is still sending.
   */
  async append(ownerId: string, id: string, offset: number, body: Readable): Promise<ResumableUpload> {
    const stored = await this.owned(ownerId, id);
    await this.takeOver(id);
    let release!: () => void;
    let stopped = false;
    const writer: Writer = {
      stop: () => {
        stopped = true;
        body.destroy();
      },
      done: new Promise<void>((resolve) => (release = resolve)),
    };
    this.writers.set(id, writer);
    try {
      const size = await this.size(id);
      if (offset !== size) throw new UploadOffsetError(size);
      const handle = await open(this.partPath(id), 'a');
      let written = size;
      let head: Buffer[] | null = stored.checked ? null : [await this.readHead(id, size)];
      let headLength = head ? head[0]!.length : 0;
      const headWanted = Math.min(HEAD_BYTES, stored.length);
      const checkHead = async (): Promise<void> => {
        const bytes = Buffer.concat(head!).subarray(0, headWanted);
        head = null;
        try {
          await this.purposes.get(stored.purpose)?.checkHead?.(bytes, stored.length, stored.metadata);
        } catch (error) {
          await this.refuse(stored, error);
          throw error;
        }
        stored.checked = true;
      };
      try {
        if (head && headLength >= headWanted) await checkHead();
        // A refusal leaves the connection to the answer (which reads the rest within bounds): not destroyed here.
        for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
          if (written + chunk.length > stored.length) {
            throw new UploadPastLengthError();
          }
          await handle.write(chunk);
          written += chunk.length;
          if (head) {
            head.push(chunk);
            headLength += chunk.length;
            if (headLength >= headWanted) await checkHead();
          }
        }
      } catch (error) {
        // A dropped or superseded connection keeps what it wrote; anything else is answered.
        if (!stopped && !(body.destroyed && !(error instanceof CodedError))) throw error;
      } finally {
        await handle.datasync().catch(() => undefined);
        await handle.close();
      }
      if (!this.uploads.has(id)) throw new UploadNotFoundError();
      stored.expiresAt = this.now() + this.ttlMs;
      await this.persist(stored);
      return this.view(stored, await this.size(id));
    } finally {
      if (this.writers.get(id) === writer) this.writers.delete(id);
      release();
    }
  }

  /** Ends an upload the client gives up (tus termination). */
  async remove(ownerId: string, id: string): Promise<void> {
    await this.owned(ownerId, id);
    await this.takeOver(id);
    await this.forget(id);
  }

  /**
   * Hands a whole upload of one of `purposes` to its module, once: a second claim, another account's claim or one
   * for another purpose finds nothing.
   */
  async claim(ownerId: string, id: string, purposes: readonly string[]): Promise<ClaimedUpload> {
    const stored = await this.owned(ownerId, id);
    if (!purposes.includes(stored.purpose)) throw new UploadNotFoundError();
    const size = await this.size(id);
    if (this.writers.has(id) || size !== stored.length) throw new UploadIncompleteError(size, stored.length);
    if (!stored.checked) {
      // A file shorter than the head: its check runs on the whole.
      const head = await this.readHead(id, size);
      try {
        await this.purposes.get(stored.purpose)?.checkHead?.(head, stored.length, stored.metadata);
      } catch (error) {
        await this.refuse(stored, error);
        throw error;
      }
      stored.checked = true;
    }
    const claimed = join(this.options.dir, `${id}.claimed`);
    try {
      await rename(this.partPath(id), claimed);
    } catch (error) {
      if (isMissing(error)) throw new UploadNotFoundError();
      throw error;
    }
    this.uploads.delete(id);
    await rm(this.infoPath(id), { force: true });
    return {
      path: claimed,
      length: stored.length,
      filename: stored.metadata.filename || 'upload',
      metadata: stored.metadata,
      discard: () => rm(claimed, { force: true }),
    };
  }

  /**
   * Removes the partial files past their expiry, and what a crash left: a part without its record, a claimed file
   * nobody moved. Returns how many uploads went.
   */
  async sweep(): Promise<number> {
    await this.load();
    const now = this.now();
    let swept = 0;
    for (const stored of [...this.uploads.values()]) {
      if (stored.expiresAt <= now && !this.writers.has(stored.id)) {
        await this.forget(stored.id);
        swept++;
      }
    }
    for (const name of await readdir(this.options.dir)) {
      const id = name.split('.')[0]!;
      if (this.uploads.has(id)) continue;
      const path = join(this.options.dir, name);
      const modified = await stat(path).then(
        (info) => info.mtimeMs,
        () => now,
      );
      if (now - modified > (name.endsWith('.claimed') ? 60 * 60 * 1000 : this.ttlMs)) {
        await rm(path, { force: true });
      }
    }
    return swept;
  }

  private async load(): Promise<void> {
    this.loaded ??= (async () => {
      for (const name of await readdir(this.options.dir)) {
        if (!name.endsWith('.json') || !ID.test(name.slice(0, -5))) continue;
        try {
          const stored = JSON.parse(await readFile(join(this.options.dir, name), 'utf8')) as Stored;
          if (stored.id === name.slice(0, -5)) this.uploads.set(stored.id, stored);
        } catch {
          // a record cut short by a crash: its part is swept once old
        }
      }
    })();
    return this.loaded;
  }

  private async owned(ownerId: string, id: string): Promise<Stored> {
    await this.load();
    const stored = ID.test(id) ? this.uploads.get(id) : undefined;
    if (!stored || stored.ownerId !== ownerId || stored.expiresAt <= this.now()) {
      // A refused upload answers with its refusal, to its owner only.
      const refused = this.refused.get(id);
      if (refused && refused.ownerId === ownerId && refused.until > this.now()) throw refused.error;
      throw new UploadNotFoundError();
    }
    return stored;
  }

  /** Stops the request writing `id`, if any, and waits (within `takeoverMs`) for it to let go. */
  private async takeOver(id: string): Promise<void> {
    const holder = this.writers.get(id);
    if (!holder) return;
    holder.stop();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = await Promise.race([
      holder.done.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.takeoverMs))),
    ]);
    clearTimeout(timer);
    if (gaveUp) throw new UploadIncompleteError(await this.size(id), this.uploads.get(id)?.length ?? 0);
  }

  /** Keeps at most `maxPending - 1` unfinished uploads of an account before it starts another: the oldest idle go. */
  private async makeRoomFor(ownerId: string): Promise<void> {
    const mine = [...this.uploads.values()]
      .filter((stored) => stored.ownerId === ownerId && !this.writers.has(stored.id))
      .sort((a, b) => a.expiresAt - b.expiresAt);
    const pending = [...this.uploads.values()].filter((stored) => stored.ownerId === ownerId).length;
    for (let i = 0; i < pending - this.maxPending + 1 && i < mine.length; i++) await this.forget(mine[i]!.id);
  }

  /**
   * Removes an upload its purpose refused, and remembers the refusal for an hour: a browser still sending when the
   * answer came often loses it with its connection (it reads an answer only once its body is sent), and learns it by
   * asking for the upload again (`refusal`).
   */
  private async refuse(stored: Stored, error: unknown): Promise<void> {
    await this.forget(stored.id);
    const now = this.now();
    for (const [id, entry] of this.refused) {
      if (entry.until > now && this.refused.size < MAX_REFUSALS) break;
      this.refused.delete(id);
    }
    this.refused.set(stored.id, { ownerId: stored.ownerId, error, until: now + REFUSAL_KEPT_MS });
  }

  private async forget(id: string): Promise<void> {
    this.uploads.delete(id);
    await Promise.all([rm(this.partPath(id), { force: true }), rm(this.infoPath(id), { force: true })]);
  }

  private async size(id: string): Promise<number> {
    try {
      return (await stat(this.partPath(id))).size;
    } catch (error) {
      if (isMissing(error)) throw new UploadNotFoundError();
      throw error;
    }
  }

  private async readHead(id: string, size: number): Promise<Buffer> {
    const wanted = Math.min(size, HEAD_BYTES);
    if (wanted === 0) return Buffer.alloc(0);
    const handle = await open(this.partPath(id), 'r');
    try {
      const buffer = Buffer.alloc(wanted);
      const { bytesRead } = await handle.read(buffer, 0, wanted, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  private async persist(stored: Stored): Promise<void> {
    const temp = `${this.infoPath(stored.id)}.tmp`;
    await writeFile(temp, JSON.stringify(stored));
    await rename(temp, this.infoPath(stored.id));
  }

  private view(stored: Stored, offset: number): ResumableUpload {
    const { checked: _checked, ...rest } = stored;
    return { ...rest, offset };
  }

  private partPath(id: string): string {
    return join(this.options.dir, `${id}.part`);
  }

  private infoPath(id: string): string {
    return join(this.options.dir, `${id}.json`);
  }
}
