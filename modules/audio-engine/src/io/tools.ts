/**
 * Locating and running ffmpeg / ffprobe. Lookup order: FFMPEG_PATH / FFPROBE_PATH, then the PATH, then an
 * npm-shipped binary (`ffmpeg-static`, `@ffprobe-installer/ffprobe`) if one happens to be installed. The engine
 * installs none itself.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { CancelledError, ToolMissingError } from '../errors';
import type { JobContext } from '../job/context';

export type ToolName = 'ffmpeg' | 'ffprobe';

const cache = new Map<ToolName, string>();

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fromNpm(tool: ToolName): string | undefined {
  const req = createRequire(join(process.cwd(), 'noop.js'));
  const candidates =
    tool === 'ffmpeg'
      ? ['ffmpeg-static', '@ffmpeg-installer/ffmpeg']
      : ['@ffprobe-installer/ffprobe', 'ffprobe-static'];
  for (const name of candidates) {
    try {
      const mod: unknown = req(name);
      const path =
        typeof mod === 'string'
          ? mod
          : mod && typeof mod === 'object' && 'path' in mod && typeof mod.path === 'string'
            ? mod.path
            : undefined;
      if (path && isExecutable(path)) return path;
    } catch {
      // not installed: try the next candidate
    }
  }
  return undefined;
}

/** Absolute path of ffmpeg or ffprobe; throws ENGINE.TOOL_MISSING when none is found. */
export function toolPath(tool: ToolName): string {
  const cached = cache.get(tool);
  if (cached) return cached;
  const env = process.env[tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH'];
  let found: string | undefined;
  if (env && isExecutable(env)) found = env;
  if (!found) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (dir && isExecutable(join(dir, tool))) {
        found = join(dir, tool);
        break;
      }
    }
  }
  found ??= fromNpm(tool);
  if (!found) {
    throw new ToolMissingError(tool, `install it (apt-get install ffmpeg) or set ${tool.toUpperCase()}_PATH`);
  }
  cache.set(tool, found);
  return found;
}

export interface ToolRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface RunToolOptions {
  ctx?: JobContext;
  /** Data written to stdin (the stream is closed afterwards). */
  stdin?: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** Receives stdout chunks instead of collecting them. */
  onStdout?: (chunk: Buffer) => void;
  /** Receives stderr text as it arrives (e.g. `-progress pipe:2`). */
  onStderr?: (text: string) => void;
  /** Max stderr characters kept (the tail), default 16 kB. */
  maxStderr?: number;
}

/**
 * Runs a tool to completion. Resolves with its exit code, stdout (unless streamed) and the tail of stderr. On abort
 * the child is killed with SIGKILL and the promise rejects with CancelledError.
 */
export function runTool(tool: ToolName, args: string[], options: RunToolOptions = {}): Promise<ToolRun> {
  const { ctx } = options;
  ctx?.throwIfCancelled();
  const bin = toolPath(tool);
  return new Promise<ToolRun>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const { stdout, stderr: stderrStream } = child;
    if (!stdout || !stderrStream) throw new Error('spawn without pipes');
    const pid = child.pid;
    if (pid !== undefined) ctx?.resource({ type: 'child', pid, alive: true });
    const chunks: Buffer[] = [];
    let stderr = '';
    const maxStderr = options.maxStderr ?? 16_384;
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      child.kill('SIGKILL');
    };
    ctx?.signal?.addEventListener('abort', onAbort, { once: true });
    stdout.on('data', (chunk: Buffer) => {
      if (options.onStdout) options.onStdout(chunk);
      else chunks.push(chunk);
    });
    stderrStream.setEncoding('utf8');
    stderrStream.on('data', (text: string) => {
      options.onStderr?.(text);
      stderr = (stderr + text).slice(-maxStderr);
    });
    child.on('error', (error) => {
      ctx?.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      ctx?.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) ctx?.resource({ type: 'child', pid, alive: false });
      if (cancelled) reject(new CancelledError());
      else resolve({ code, stdout: Buffer.concat(chunks), stderr });
    });
    const input = options.stdin;
    if (input && child.stdin) {
      const stdin = child.stdin;
      stdin.on('error', () => {
        // EPIPE when the tool exits early: its exit code and stderr tell the story
      });
      void (async () => {
        try {
          for await (const chunk of input) {
            if (cancelled || stdin.destroyed) break;
            if (!stdin.write(chunk)) {
              await new Promise<void>((r) => {
                const done = () => {
                  stdin.off('drain', done);
                  stdin.off('close', done);
                  r();
                };
                stdin.on('drain', done);
                stdin.on('close', done);
              });
            }
          }
        } finally {
          stdin.end();
        }
      })().catch(() => stdin.destroy());
    }
  });
}

/** Last meaningful stderr lines of a tool run, for error details. */
export function stderrTail(stderr: string, lines = 4): string {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-lines)
    .join(' | ');
}
