import '../runtime/refuse-unsupported-runtime';
import { SingleBar } from 'cli-progress';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import { EsdbEventStore } from '../infra/event-store/esdb-event-store';
import { SqliteEventStore } from '../infra/event-store/sqlite-event-store';
import { SqliteDatabase } from '../infra/sqlite/sqlite-database';
import { copyEvents } from './copy-events';

const USAGE = `Usage: npm run copy-events -- --to <esdb://host:2113?tls=false | sqlite:/path/to/file.db>
Copies the embedded event log under DATA_DIR (default ./data) into another event store, in order, keeping
event ids and stream revisions. Safe to run again after an interruption. Stop the server first.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const to = args[args.indexOf('--to') + 1];
  if (!args.includes('--to') || !to) {
    console.log(USAGE);
    return 2;
  }
  const config = loadConfig({ ...process.env, EVENTSTORE_URL: undefined, MONGODB_URL: undefined });
  const sourceDb = new SqliteDatabase(join(config.DATA_DIR, 'kora.db'));
  const source = new SqliteEventStore(sourceDb);
  const targetDb = to.startsWith('sqlite:') ? new SqliteDatabase(to.slice('sqlite:'.length)) : null;
  const target = targetDb ? new SqliteEventStore(targetDb) : new EsdbEventStore(to);
  const bar = new SingleBar({
    stream: process.stderr,
    format: 'copy-events [{bar}] {percentage}% | position {value}/{total} | {copied} copied, {skipped} already there',
    noTTYOutput: true,
    notTTYSchedule: 1000,
  });
  try {
    bar.start(Math.max(await source.headPosition(), 1), 0, { copied: 0, skipped: 0 });
    const result = await copyEvents(source, target, (p) =>
      bar.update(p.position, { copied: p.copied, skipped: p.skipped }),
    );
    bar.stop();
    console.log(
      `Copied ${result.copied} events (${result.skipped} were already there) up to position ${result.position}.`,
    );
    return 0;
  } finally {
    await target.close();
    targetDb?.close();
    sourceDb.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
