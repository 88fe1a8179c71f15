/**
 * Locating and running ffmpeg / ffprobe: the one place that decides which binary runs, for the engine, the preview
 * cutter, the command lines and `/api/health`. Lookup order:
 * 1. `FFMPEG_PATH` / `FFPROBE_PATH`: taken as given, never second-guessed (a wrong path fails loudly where it runs);
 * 2. the system's, on the PATH;
 * 3. the static binary an optional npm dependency ships in its tarball (`@ffmpeg-installer/<platform>-<arch>`,
 *    `@ffprobe-installer/<platform>-<arch>`, pulled in by `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe`
 *    for the platform npm installs on), so `npm install && npm start` needs nothing but Node.
 */
import { execFile, spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { CancelledError, ToolMissingError } from '../errors';
import type { StageContext } from '../stage/context';

export type ToolName = 'ffmpeg' | 'ffprobe';

/** Where a binary came from: its environment variable, the system's PATH, or an npm package. */
export type ToolSource = 'env' | 'system' | 'npm';

export interface ResolvedTool {
  tool: ToolName;
  path: string;
  source: ToolSource;
  /** The npm package that ships it (source `npm`). */
  package?: string;
}

/** The environment variable that overrides a tool's binary. */
export const TOOL_ENV: Record<ToolName, string> = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' };

/** The npm scopes whose per-platform packages ship the binaries (`@ffmpeg-installer/linux-x64/ffmpeg`). */
const NPM_SCOPE: Record<ToolName, string> = { ffmpeg: '@ffmpeg-installer', ffprobe: '@ffprobe-installer' };

const cache = new Map<ToolName, ResolvedTool>();

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where to resolve npm packages from: this file (the workspace's node_modules), then the working directory. */
function requirers(): NodeJS.Require[] {
  const from = [join(process.cwd(), 'noop.js')];
  if (typeof __filename === 'string') from.unshift(__filename);
  return from.map((file) => createRequire(file));
}

/** The binary shipped by `<scope>/<platform>-<arch>` (made executable if an install without scripts left it not). */
export function npmTool(
  tool: ToolName,
  platform: string = process.platform,
  arch: string = process.arch,
): ResolvedTool | undefined {
  const pkg = `${NPM_SCOPE[tool]}/${platform}-${arch}`;
  const binary = platform === 'win32' ? `${tool}.exe` : tool;
  for (const req of requirers()) {
    let path: string;
    try {
      path = join(dirname(req.resolve(`${pkg}/package.json`)), binary);
    } catch {
      continue; // not installed (another platform, or `--omit=optional`): try the next place, then give up
    }
    if (!isExecutableFile(path)) {
      try {
        // The package's postinstall is `chmod u+x`: do it here when scripts did not run (`--ignore-scripts`).
        chmodSync(path, statSync(path).mode | 0o111);
      } catch {
        continue;
      }
      if (!isExecutableFile(path)) continue;
    }
    return { tool, path, source: 'npm', package: pkg };
  }
  return undefined;
}

/** The first `tool` on `PATH`. */
export function systemTool(tool: ToolName, path: string = process.env.PATH ?? ''): ResolvedTool | undefined {
  const binary = process.platform === 'win32' ? `${tool}.exe` : tool;
  for (const dir of path.split(delimiter)) {
    if (dir && isExecutableFile(join(dir, binary))) return { tool, path: join(dir, binary), source: 'system' };
  }
  return undefined;
}

/** The lookup itself, uncached: `override`, else the first on `path`, else the npm-shipped binary, else undefined. */
export function findTool(
  tool: ToolName,
  { override, path }: { override?: string | undefined; path?: string | undefined } = {},
): ResolvedTool | undefined {
  if (override) return { tool, path: override, source: 'env' };
  return systemTool(tool, path) ?? npmTool(tool);
}

/**
 * Which binary of `tool` runs: `override` (default: `FFMPEG_PATH` / `FFPROBE_PATH`), else the system's, else the
 * npm-shipped one. Throws ENGINE.TOOL_MISSING when there is none. The PATH and npm lookup is cached per process.
 */
export function resolveTool(tool: ToolName, override: string | undefined = process.env[TOOL_ENV[tool]]): ResolvedTool {
  if (override) return { tool, path: override, source: 'env' };
  const cached = cache.get(tool);
  if (cached) return cached;
  const found = findTool(tool);
  if (!found) {
    throw new ToolMissingError(
      tool,
      `none on the PATH and no npm-shipped binary for ${process.platform}-${process.arch} ` +
        `(run npm install, install ffmpeg, or set ${TOOL_ENV[tool]})`,
    );
  }
  cache.set(tool, found);
  return found;
}

/** Absolute path of ffmpeg or ffprobe (see `resolveTool`); throws ENGINE.TOOL_MISSING when none is found. */
export function toolPath(tool: ToolName): string {
  return resolveTool(tool).path;
}

export interface ToolIdentity extends ResolvedTool {
  /** What `-version` prints after "ffmpeg version" ("5.1.9-0+deb12u1", "N-47683-g0e8eb07980-static"). */
  version: string;
}

/** Runs `<binary> -version` and reads its version; rejects when it cannot be run or prints none. */
export function identifyTool(resolved: ResolvedTool, timeoutMs = 5_000): Promise<ToolIdentity> {
  return new Promise((resolve, reject) => {
    execFile(resolved.path, ['-hide_banner', '-version'], { timeout: timeoutMs }, (error, stdout) => {
      if (error) {
        reject(error);
        return;
      }
      const version = new RegExp(`^${resolved.tool} version (\\S+)`, 'm').exec(stdout)?.[1];
      if (version) resolve({ ...resolved, version });
      else reject(new Error(`${resolved.path} did not report a ${resolved.tool} version`));
    });
  });
}

export interface ToolRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface RunToolOptions {
  ctx?: StageContext;
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
