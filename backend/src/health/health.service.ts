import { Inject, Injectable } from '@nestjs/common';
import { EventStore, ReadStore } from '@kora/kernel';
import { execFile } from 'node:child_process';
import { mkdirSync, statfsSync } from 'node:fs';
import { promisify } from 'node:util';
import { CONFIG, type Config } from '../config/config';

const run = promisify(execFile);

export type CheckStatus = 'up' | 'down';

export interface Check {
  status: CheckStatus;
  [detail: string]: unknown;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  /** The names of the checks that failed. */
  failing: string[];
  checks: Record<string, Check>;
}

const TIMEOUT_MS = 2_000;
const FFMPEG_CACHE_MS = 60_000;
const DISK_CACHE_MS = 1_000;

function withTimeout<T>(promise: Promise<T>, ms = TIMEOUT_MS): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ]);
}

/** The ffmpeg binary: FFMPEG_PATH, else the one on the PATH. */
export function ffmpegBinary(config: Pick<Config, 'FFMPEG_PATH'>): string {
  return config.FFMPEG_PATH ?? 'ffmpeg';
}

@Injectable()
export class HealthService {
  private ffmpeg: { at: number; check: Check } | null = null;
  private room: { at: number; ok: boolean } | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly reads: ReadStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async report(): Promise<HealthReport> {
    const entries = await Promise.all([
      this.probe('eventStore', async () => ({ engine: this.events.kind, head: await this.eventsPing() })),
      this.probe('readStore', async () => {
        await withTimeout(this.reads.ping());
        return { engine: this.reads.kind };
      }),
      this.probe('disk', async () => this.disk()),
      this.ffmpegCheck(),
    ]);
    const checks = Object.fromEntries(entries);
    const failing = entries.filter(([, check]) => check.status === 'down').map(([name]) => name);
    return { status: failing.length === 0 ? 'ok' : 'degraded', failing, checks };
  }

  /**
   * Whether `DATA_DIR` still has the room the disk check asks for (`HEALTH_MIN_FREE_MB`); read at most once a second,
   * so the upload routes can ask on every request. A disk that cannot be read counts as full.
   */
  diskHasRoom(): boolean {
    const now = Date.now();
    if (this.room && now - this.room.at < DISK_CACHE_MS) return this.room.ok;
    let ok: boolean;
    try {
      this.disk();
      ok = true;
    } catch {
      ok = false;
    }
    this.room = { at: now, ok };
    return ok;
  }

  private async eventsPing(): Promise<number> {
    await withTimeout(this.events.ping());
    return withTimeout(this.events.headPosition());
  }

  private async probe(name: string, check: () => Promise<Record<string, unknown>>): Promise<[string, Check]> {
    try {
      return [name, { status: 'up', ...(await check()) }];
    } catch (error) {
      return [name, { status: 'down', error: error instanceof Error ? error.message : String(error) }];
    }
  }

  private disk(): Record<string, unknown> {
    mkdirSync(this.config.DATA_DIR, { recursive: true });
    const stats = statfsSync(this.config.DATA_DIR);
    const freeMb = Math.floor((stats.bavail * stats.bsize) / 1024 / 1024);
    if (freeMb < this.config.HEALTH_MIN_FREE_MB) {
      throw new Error(`${freeMb} MB free under ${this.config.DATA_DIR}, below ${this.config.HEALTH_MIN_FREE_MB} MB`);
    }
    return { freeMb, path: this.config.DATA_DIR };
  }

  /** Runs `ffmpeg -version` at most once a minute. */
  private async ffmpegCheck(): Promise<[string, Check]> {
    if (this.ffmpeg && Date.now() - this.ffmpeg.at < FFMPEG_CACHE_MS) return ['ffmpeg', this.ffmpeg.check];
    const [, check] = await this.probe('ffmpeg', async () => {
      const binary = ffmpegBinary(this.config);
      const { stdout } = await withTimeout(run(binary, ['-hide_banner', '-version'], { timeout: TIMEOUT_MS }));
      const version = /ffmpeg version (\S+)/.exec(stdout)?.[1];
      if (!version) throw new Error(`${binary} did not report a version`);
      return { version, path: binary };
    });
    this.ffmpeg = { at: Date.now(), check };
    return ['ffmpeg', check];
  }
}
