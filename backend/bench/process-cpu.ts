import { createHash } from 'node:crypto';
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

/**
 * Milliseconds this thread takes for a fixed piece of CPU work (a track-sized JSON document serialised, hashed and
 * parsed 4,000 times; the median of five rounds): how fast the host runs at that moment. A shared VM's speed moves by
 * half within minutes, so a bench prints it beside its figures, and two runs compare only where it is about the same.
 */
export function referenceWorkMs(): number {
  const doc = {
    _id: '01936f4e-8f5a-7c3e-9b1d-4f2a6c8e0d1b',
    ownerId: '01936f4e-8f5a-7c3e-9b1d-000000000001',
    filename: 'Dakar nights (final mix).wav',
    service: 'AI_MASTERING',
    status: 'PREVIEW_READY',
    unlocked: false,
    durationSec: 183.4,
    files: { original: 'tracks/a/original.wav', preview: 'tracks/a/preview.mp3', master: 'tracks/a/master.wav' },
    loudness: { integrated: -9.1, truePeak: -1.0, range: 6.2 },
    createdAt: '2026-12-04T01:00:00.000Z',
    updatedAt: '2026-12-04T01:05:00.000Z',
    note: 'x'.repeat(300),
  };
  const rounds: number[] = [];
  let sink = 0;
  for (let round = 0; round < 5; round += 1) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 4_000; i += 1) {
      const text = JSON.stringify({ ...doc, durationSec: i });
      sink +=
        createHash('sha256').update(text).digest()[0]! + (JSON.parse(text) as { durationSec: number }).durationSec;
    }
    rounds.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  if (sink < 0) throw new Error('unreachable'); // keeps the work from being optimised away
  return rounds.sort((a, b) => a - b)[2]!;
}
