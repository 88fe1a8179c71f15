import { createHash } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Scratch folders (a job's working files, the demo material being made, a blob copied out of GridFS) are named
 * `kora-<kind>-<host>-<pid>-XXXXXX` in the OS temp dir, so that the sweep after a crash can tell a folder whose
 * process is gone from one a live process (on this machine or another sharing the directory) is still using.
 */
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/** The `mkdtemp` prefix for a scratch folder of this process. */
export function scratchPrefix(kind: 'job' | 'demo' | 'blob'): string {
  return `kora-${kind}-${HOST}-${process.pid}-`;
}

export interface ScratchOwner {
  kind: string;
  /** Null for the names made before owners were recorded (`kora-job-XXXXXX`). */
  host: string | null;
  pid: number | null;
  /** Whether the host is this machine. */
  local: boolean;
}

/** Who made a scratch folder, from its name; null when the name is not one of ours. */
export function scratchOwner(name: string): ScratchOwner | null {
  const owned = /^kora-(job|demo|blob)-([0-9a-f]{8})-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
  if (owned) return { kind: owned[1]!, host: owned[2]!, pid: Number(owned[3]), local: owned[2] === HOST };
  const legacy = /^kora-(job|demo|blob)-[A-Za-z0-9]{6}$/.exec(name);
  return legacy ? { kind: legacy[1]!, host: null, pid: null, local: false } : null;
}

/** Whether a process with this id runs on this machine (in this process namespace). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
