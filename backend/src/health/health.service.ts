import type { HealthReport as PublicHealthReport } from '@kora/contracts';
import { Inject, Injectable, Logger as NestLogger } from '@nestjs/common';
import { identifyTool, resolveTool, type ToolIdentity, type ToolName } from '@kora/audio-engine';
import { EventStore, ReadStore } from '@kora/kernel';
import { mkdirSync, statfsSync } from 'node:fs';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '../config/config';

export type CheckStatus = 'up' | 'down';

export interface Check {
  status: CheckStatus;
  [detail: string]: unknown;
}

/** The report as operators get it: the contract's (the status, the names of the checks that failed) and each check. */
export interface HealthReport extends PublicHealthReport {
  checks: Record<string, Check>;
}

const TIMEOUT_MS = 2_000;
/**
 * A tool's first `-version` run in this process has longer: with no earlier answer to keep, missing 2 s on a machine
 * busy from the start (demo material, jobs, a test run) would report a working binary down and refuse uploads.
 */
const FIRST_TOOL_TIMEOUT_MS = 10_000;
const TOOL_CACHE_MS = 60_000;
/** A failed check is tried again sooner: on a loaded machine `-version` can miss its time once and work after. */
const TOOL_FAILURE_CACHE_MS = 5_000;
const DISK_CACHE_MS = 1_000;

/**
 * Rejects when `promise` has not settled `ms` after the call. The timer's end waits for the check phase of the event
 * loop (`setImmediate`), after the poll phase that delivers finished I/O: when the loop itself was held (a long
 * synchronous task such as synthesising the demo material), an answer that arrived meanwhile still wins, and only a
 * store that really did not answer is reported down.
 */
function withTimeout<T>(promise: Promise<T>, ms = TIMEOUT_MS): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${ms} ms`))), ms).unref(),
    ),
  ]);
}

/**
 * The last answer each tool gave in this process, the start-up log's included: a health check whose `-version` run
 * misses its time on a machine busy from the start (demo material, jobs) keeps it rather than reporting the tool down,
 * which made the web refuse files for a minute.
 */
const lastGoodTools = new Map<ToolName, Check>();

/**
 * The ffmpeg or ffprobe binary the engine runs (`FFMPEG_PATH` / `FFPROBE_PATH`, else the system's, else the npm-shipped
 * one) and its version: what `/api/health` reports and the start-up log prints. Rejects when it cannot be run.
 */
export function runningTool(
  tool: ToolName,
  config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>,
  timeoutMs = lastGoodTools.has(tool) ? TIMEOUT_MS : FIRST_TOOL_TIMEOUT_MS,
): Promise<ToolIdentity> {
  try {
    const resolved = resolveTool(tool, tool === 'ffmpeg' ? config.FFMPEG_PATH : config.FFPROBE_PATH);
    return identifyTool(resolved, timeoutMs);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

function goodCheck({ path, source, version, package: pkg }: ToolIdentity): Check {
  return { status: 'up', version, path, source, ...(pkg ? { package: pkg } : {}) };
}

@Injectable()
export class HealthService {
  private readonly tools = new Map<ToolName, { at: number; check: Check }>();
  private readonly running = new Map<ToolName, Promise<[string, Check]>>();
  private readonly logger = new NestLogger(HealthService.name);
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
      this.toolCheck('ffmpeg'),
      this.toolCheck('ffprobe'),
    ]);
    const checks = Object.fromEntries(entries);
    const failing = entries.filter(([, check]) => check.status === 'down').map(([name]) => name);
    // The answer says only which checks failed; the log says why, for the operator (and a failed test's server log).
    if (failing.length > 0)
      this.logger.warn(
        `health degraded: ${failing.map((name) => `${name} (${String(checks[name]!.error)})`).join(', ')}`,
      );
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

  /**
   * Runs `ffmpeg -version` (or ffprobe's) at most once a minute (every 5 s while it fails): which binary, where it
   * comes from, its version. A run that only misses its time (a machine busy with jobs) keeps the last good answer:
   * it says nothing about whether the binary runs, and reporting it down would refuse uploads on a busy server.
   */
  private toolCheck(tool: ToolName): Promise<[string, Check]> {
    const cached = this.tools.get(tool);
    const life = cached?.check.status === 'up' ? TOOL_CACHE_MS : TOOL_FAILURE_CACHE_MS;
    if (cached && Date.now() - cached.at < life) return Promise.resolve([tool, cached.check]);
    // Health checks that arrive while a run is under way share it (one `-version` at a time per tool).
    let running = this.running.get(tool);
    if (!running) {
      running = this.identify(tool).finally(() => this.running.delete(tool));
      this.running.set(tool, running);
    }
    return running;
  }

  private async identify(tool: ToolName): Promise<[string, Check]> {
    let check: Check;
    try {
      check = goodCheck(await runningTool(tool, this.config));
    } catch (error) {
      const timedOut = (error as { killed?: boolean }).killed === true;
      const lastGood = lastGoodTools.get(tool);
      check =
        timedOut && lastGood
          ? lastGood
          : { status: 'down', error: error instanceof Error ? error.message : String(error) };
    }
    if (check.status === 'up') lastGoodTools.set(tool, check);
    this.tools.set(tool, { at: Date.now(), check });
    return [tool, check];
  }
}

const SOURCE: Record<ToolIdentity['source'], string> = {
  env: 'from its environment variable',
  system: "the system's",
  npm: 'shipped by npm',
};

/**
 * Logs which ffmpeg and ffprobe the engine runs, where they come from and their versions (one line each), or an error
 * naming the one that cannot be run: at start-up of the server and of a worker.
 */
export async function logTools(
  config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>,
  logger: Pick<Logger, 'info' | 'error'>,
): Promise<void> {
  for (const tool of ['ffmpeg', 'ffprobe'] as const) {
    try {
      const identity = await runningTool(tool, config);
      lastGoodTools.set(tool, goodCheck(identity));
      const { path, source, version } = identity;
      logger.info({ tool, path, source, version }, `${tool} ${version}, ${SOURCE[source]}: ${path}`);
    } catch (error) {
      logger.error(
        { tool, err: error },
        `${tool} cannot be run: uploads and jobs will fail until it can (${tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH'})`,
      );
    }
  }
}
