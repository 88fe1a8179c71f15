import Database from 'better-sqlite3';

/**
 * A preload that times every `COMMIT` of the embedded database in its process and prints, at exit, how long they
 * took and how many held the event loop over 2 ms (a checkpoint inside a commit does): `node --require
 * backend/dist/bench/commit-times.js ...`, or `BENCH_NODE_ARGS="--require $PWD/backend/dist/bench/commit-times.js"`
 * for the server of `npm run bench:billing`. Statements are prepared once and cached, so this wraps them as prepared.
 */
const times: number[] = [];
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (this: Database.Database, source: string) {
  const statement = prepare.call(this, source);
  if (source !== 'COMMIT') return statement;
  const run = statement.run;
  statement.run = ((...params: unknown[]) => {
    const started = process.hrtime.bigint();
    try {
      return Reflect.apply(run, statement, params) as Database.RunResult;
    } finally {
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }) as typeof run;
  return statement;
} as typeof prepare;

process.on('exit', () => {
  if (times.length === 0) return;
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number): string => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
  const sum = (values: number[]): string => values.reduce((a, b) => a + b, 0).toFixed(0);
  const long = sorted.filter((ms) => ms > 2);
  process.stderr.write(
    `commit-times (pid ${process.pid}): ${sorted.length} commits, ${sum(sorted)} ms in all; p50 ${at(0.5)}, p99 ${at(0.99)}, ` +
      `max ${at(1)} ms; over 2 ms: ${long.length}, ${sum(long)} ms\n`,
  );
});
