import { readFileSync } from 'node:fs';

/** CPU seconds of a process, its threads and its waited-for children, from /proc (NaN where there is none). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime: fields 14-17 of the whole line, 12-15 after the command.
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    return ticks / 100;
  } catch {
    return Number.NaN;
  }
}
