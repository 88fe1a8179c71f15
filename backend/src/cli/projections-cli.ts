import type { ProjectionRunner, ProjectionStatus, RebuildResult } from '@kora/kernel';
import { SingleBar } from 'cli-progress';

export interface CliIo {
  out: (line: string) => void;
  err: NodeJS.WritableStream & { isTTY?: boolean };
}

const USAGE = `Usage:
  npm run projections -- status              every read model: version, checkpoint, head, lag
  npm run projections -- rebuild <name>      rebuild one read model from zero (readers keep the old one until done)
  npm run projections -- rebuild --all       rebuild every read model`;

const number = new Intl.NumberFormat('en-US');

export function formatStatus(statuses: readonly ProjectionStatus[]): string {
  if (statuses.length === 0) return 'No projections are registered.';
  const header = ['projection', 'version', 'stored', 'position', 'head', 'lag', 'state'];
  const rows = statuses.map((s) => [
    s.name,
    String(s.version),
    s.storedVersion === null ? '-' : String(s.storedVersion),
    number.format(s.position),
    number.format(s.head),
    number.format(s.lag),
    s.storedVersion !== null && s.storedVersion !== s.version
      ? 'needs rebuild'
      : s.lastError
        ? `error: ${s.lastError}`
        : s.lag === 0
          ? 'up to date'
          : 'behind',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function summary(result: RebuildResult): string {
  const seconds = result.milliseconds / 1000;
  const rate =
    result.applied > 0 && seconds > 0 ? `, ${number.format(Math.round(result.applied / seconds))} events/s` : '';
  return `Rebuilt ${result.projection}: ${number.format(result.applied)} events applied, ${number.format(result.documents)} documents, position ${number.format(result.position)}, in ${seconds.toFixed(2)} s${rate}`;
}

/** The projections command line, on a runner built by the caller. Returns the process exit code. */
export async function runProjectionsCli(args: readonly string[], runner: ProjectionRunner, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'status') {
    io.out(formatStatus(await runner.status()));
    return 0;
  }
  if (command === 'rebuild' && rest.length === 1) {
    const names = rest[0] === '--all' ? runner.names : [rest[0]!];
    const unknown = names.filter((name) => !runner.names.includes(name));
    if (unknown.length > 0) {
      io.out(`Unknown projection: ${unknown.join(', ')}. Known: ${runner.names.join(', ') || 'none'}`);
      return 2;
    }
    let total = 0;
    for (const name of names) {
      const bar = new SingleBar({
        stream: io.err,
        format: `${name.padEnd(24)} [{bar}] {percentage}% | {value}/{total} positions | {applied} events`,
        noTTYOutput: true,
        notTTYSchedule: 1000,
        hideCursor: true,
      });
      let started = false;
      const result = await runner.rebuild(name, (progress) => {
        if (!started) {
          bar.start(Math.max(progress.head, 1), 0, { applied: 0 });
          started = true;
        }
        bar.setTotal(Math.max(progress.head, progress.position, 1));
        bar.update(progress.position, { applied: progress.applied });
      });
      if (started) bar.stop();
      total += result.applied;
      io.out(summary(result));
    }
    if (rest[0] === '--all')
      io.out(`Rebuilt ${names.length} projection(s), ${number.format(total)} events applied in all.`);
    return 0;
  }
  io.out(USAGE);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}
