import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infra/event-store/sqlite-event-store';
import { SqliteReadStore } from '../../src/infra/read-store/sqlite-read-store';
import { SqliteDatabase } from '../../src/infra/sqlite/sqlite-database';
import { tempDir } from './temp';

export interface EmbeddedStores {
  db: SqliteDatabase;
  events: SqliteEventStore;
  reads: SqliteReadStore;
  file: string;
  close(): void;
}

function open(file: string, cleanup: () => void): EmbeddedStores {
  const db = new SqliteDatabase(file);
  const stores: EmbeddedStores = {
    db,
    events: new SqliteEventStore(db, { pollIntervalMs: 50 }),
    reads: new SqliteReadStore(db),
    file,
    close: () => {
      db.close();
      cleanup();
    },
  };
  return stores;
}

/** Embedded event and read stores on a fresh database file in a temporary directory. */
export function embeddedStores(): EmbeddedStores {
  const dir = tempDir();
  return open(join(dir.path, 'kora.db'), dir.cleanup);
}
