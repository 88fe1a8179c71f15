/**
 * Atomic job outputs: every file is written under a hidden temporary name in the output directory and renamed to
 * its final name only when the whole job has succeeded (rename within one directory is atomic on POSIX), so a
 * failed or cancelled job leaves no half-written file behind. Outputs in a subdirectory (`preview/vocals.mp3`) are
 * written in the output directory itself and moved into the subdirectory (created then) at commit, so a failed job
 * leaves no empty directory either.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { StageContext } from '../stage/context';

export class OutputSet {
  readonly dir: string;
  private readonly pending = new Map<string, string>();
  private readonly tag = randomUUID().slice(0, 8);

  constructor(
    dir: string,
    private readonly ctx?: StageContext,
  ) {
    this.dir = resolve(dir);
  }

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** Temporary path for the output that will be named `name`. */
  temp(name: string): string {
    const path = join(this.dir, `.${name.replace(/[/\\]/g, '__')}.${this.tag}.part`);
    this.pending.set(name, path);
    this.ctx?.resource({ type: 'temp', path, alive: true });
    return path;
  }

  finalPath(name: string): string {
    return join(this.dir, name);
  }

  /** Renames every temporary file to its final name; returns the final paths by name. */
  async commit(): Promise<Record<string, string>> {
    const done: Record<string, string> = {};
    for (const [name, path] of this.pending) {
      const final = this.finalPath(name);
      if (dirname(final) !== this.dir) await mkdir(dirname(final), { recursive: true });
      await rename(path, final);
      this.ctx?.resource({ type: 'temp', path, alive: false });
      done[name] = final;
    }
    this.pending.clear();
    return done;
  }

  /** Deletes every temporary file (after a failure or cancellation). */
  async discard(): Promise<void> {
    for (const path of this.pending.values()) {
      await rm(path, { force: true });
      this.ctx?.resource({ type: 'temp', path, alive: false });
    }
    this.pending.clear();
  }
}
