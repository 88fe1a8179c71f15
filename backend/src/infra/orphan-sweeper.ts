import { Inject, Injectable, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { EventStore, processAlive, scratchOwner } from '@kora/kernel';
import { ResumableUploads } from '@kora/kernel/nest';
import { mixStream } from '@kora/mixing/contracts';
import { trackStream } from '@kora/audio/contracts';
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '../config/config';
import { LOGGER } from '../observability/logger';

/** Scratch folders named before owners were recorded, or made on another machine: swept on age alone, after a day. */
const UNOWNED_MIN_AGE_MS = 24 * 60 * 60 * 1000;

export interface SweepReport {
  /** `.partial-` files of interrupted blob writes. */
  partials: number;
  /** `.type` sidecars whose blob never landed. */
  sidecars: number;
  /** Blob folders of a track or mix track no event mentions (an upload killed between the file and the event). */
  unrecorded: number;
  emptyFolders: number;
  /** `kora-job-*`, `kora-demo-*`, `kora-blob-*` folders in the OS temp dir whose process is gone. */
  scratch: number;
  /** Resumable uploads past their expiry (a day after their last byte), and what a crash left of them. */
  resumable: number;
  bytes: number;
}

/**
 * Removes what interrupted work leaves behind (a process killed mid-upload or mid-job): at start, then every
 * `SWEEP_INTERVAL_MINUTES`. Several processes may share `DATA_DIR` (a cluster) and the temp dir (one machine), so it
 * only takes what nobody can still be using:
 *
 * - under the local blob store, `.partial-` files, orphan `.type` sidecars and empty folders untouched for
 *   `SWEEP_MIN_AGE_SECONDS` (a write in progress touches its file continuously), and track or mix-track folders as old
 *   whose id no event records;
 * - in the temp dir, scratch folders whose name names this machine and a process that no longer runs; those of
 *   another machine, of a live process, or named before owners were recorded, once untouched for a day.
 *
 * Every sweep that removed something logs what (`orphans swept`).
 */
@Injectable()
export class OrphanSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly events: EventStore,
    private readonly resumable: ResumableUploads,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.ORPHAN_SWEEP === 'off') return;
    // In the background: a large blob tree must not hold up the start.
    this.schedule();
    if (this.config.SWEEP_INTERVAL_MINUTES > 0) {
      this.timer = setInterval(() => this.schedule(), this.config.SWEEP_INTERVAL_MINUTES * 60_000);
      this.timer.unref();
    }
  }

  /** Before the stores close (their `onApplicationShutdown`): a sweep under way still records what it finds. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(): void {
    this.running = this.running.then(() =>
      this.sweep().then(
        (report) => {
          const total =
            report.partials +
            report.sidecars +
            report.unrecorded +
            report.emptyFolders +
            report.scratch +
            report.resumable;
          if (total > 0) this.logger.info({ event: 'orphans.swept', ...report }, 'orphans swept');
        },
        (error: unknown) => this.logger.warn({ err: error }, 'orphan sweep failed; the next one retries'),
      ),
    );
  }

  /** One sweep; exported for the command line and the tests. */
  async sweep(now = Date.now()): Promise<SweepReport> {
    const report: SweepReport = {
      partials: 0,
      sidecars: 0,
      unrecorded: 0,
      emptyFolders: 0,
      scratch: 0,
      resumable: 0,
      bytes: 0,
    };
    const minAgeMs = this.config.SWEEP_MIN_AGE_SECONDS * 1000;
    if (this.config.BLOB_STORE === 'local') {
      const root = join(this.config.DATA_DIR, 'blobs');
      // Folders this sweep emptied count as old as they were: their fresh mtime is the sweep's own doing.
      const touched = new Set<string>();
      await this.sweepUnrecorded(root, now - minAgeMs, report);
      await this.sweepFiles(root, now - minAgeMs, report, touched);
      await this.sweepEmptyFolders(root, now - minAgeMs, report, touched, true);
    }
    await this.sweepScratch(tmpdir(), now, minAgeMs, report);
    report.resumable = await this.resumable.sweep();
    return report;
  }

  private async sweepFiles(
    directory: string,
    before: number,
    report: SweepReport,
    touched: Set<string>,
  ): Promise<void> {
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    const names = new Set(entries.map((entry) => entry.name));
    for (const entry of entries) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        await this.sweepFiles(path, before, report, touched);
        continue;
      }
      const partial = entry.name.includes('.partial-');
      const sidecar = !partial && entry.name.endsWith('.type') && !names.has(entry.name.slice(0, -'.type'.length));
      if (!partial && !sidecar) continue;
      const info = await stat(path).catch(() => null);
      if (!info || info.mtimeMs > before) continue;
      await rm(path, { force: true });
      touched.add(directory);
      report.bytes += info.size;
      if (partial) report.partials += 1;
      else report.sidecars += 1;
    }
  }

  /** `tracks/<id>/` with no `track-<id>` stream; `mixes/<session>/<track>/` whose session's events never name it. */
  private async sweepUnrecorded(root: string, before: number, report: SweepReport): Promise<void> {
    // Untouched, inside too: a long upload writes into its partial file without touching the folder.
    const old = async (path: string): Promise<boolean> => (await newest(path)) <= before;
    const remove = async (path: string): Promise<void> => {
      report.bytes += await sizeOf(path);
      await rm(path, { recursive: true, force: true });
      report.unrecorded += 1;
    };
    for (const id of await folders(join(root, 'tracks'))) {
      const path = join(root, 'tracks', id);
      if (!(await old(path))) continue;
      if ((await this.events.readStream(trackStream(id), { maxCount: 1 })).length === 0) await remove(path);
    }
    for (const sessionId of await folders(join(root, 'mixes'))) {
      const sessionPath = join(root, 'mixes', sessionId);
      const recorded = JSON.stringify(await this.events.readStream(mixStream(sessionId)));
      for (const trackId of await folders(sessionPath)) {
        if (trackId === 'result' && recorded !== '[]') continue;
        const path = join(sessionPath, trackId);
        if ((await old(path)) && !recorded.includes(`"${trackId}"`)) await remove(path);
      }
    }
  }

  /** Removes empty folders bottom-up (never the root); a folder just made for a write is younger than `before`. */
  private async sweepEmptyFolders(
    directory: string,
    before: number,
    report: SweepReport,
    touched: Set<string>,
    isRoot = false,
  ): Promise<boolean> {
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => null);
    if (!entries) return false;
    let empty = true;
    let emptied = touched.has(directory);
    for (const entry of entries) {
      const removed =
        entry.isDirectory() && (await this.sweepEmptyFolders(join(directory, entry.name), before, report, touched));
      if (removed) emptied = true;
      else empty = false;
    }
    if (isRoot || !empty) return false;
    const info = await stat(directory).catch(() => null);
    if (!info || (info.mtimeMs > before && !emptied)) return false;
    // rmdir refuses a folder someone has just written into: nothing live is ever removed.
    const removed = await rmdir(directory).then(
      () => true,
      () => false,
    );
    if (removed) report.emptyFolders += 1;
    return removed;
  }

  private async sweepScratch(directory: string, now: number, minAgeMs: number, report: SweepReport): Promise<void> {
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const owner = scratchOwner(entry.name);
      if (!owner) continue;
      const path = join(directory, entry.name);
      const info = await stat(path).catch(() => null);
      if (!info) continue;
      const age = now - info.mtimeMs;
      // A process of this machine that is gone cannot come back for its folder: no need to wait. Anything else (a
      // live process, another machine sharing the directory, a name without an owner) waits a day untouched.
      const abandoned =
        owner.local && owner.pid !== null && owner.pid !== process.pid && !processAlive(owner.pid)
          ? true
          : age >= Math.max(minAgeMs, UNOWNED_MIN_AGE_MS);
      if (!abandoned) continue;
      report.bytes += await sizeOf(path);
      await rm(path, { recursive: true, force: true });
      report.scratch += 1;
    }
  }
}

async function folders(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

async function sizeOf(path: string): Promise<number> {
  const info = await stat(path).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path).catch(() => [])) total += await sizeOf(join(path, entry));
  return total;
}

/** The latest modification time of a folder and everything in it (Infinity when it cannot be read). */
async function newest(path: string): Promise<number> {
  const info = await stat(path).catch(() => null);
  if (!info) return Number.POSITIVE_INFINITY;
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of await readdir(path).catch(() => [])) latest = Math.max(latest, await newest(join(path, entry)));
  return latest;
}
