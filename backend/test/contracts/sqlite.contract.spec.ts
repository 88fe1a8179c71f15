import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infra/event-store/sqlite-event-store';
import { SqliteReadStore } from '../../src/infra/read-store/sqlite-read-store';
import { SqliteDatabase } from '../../src/infra/sqlite/sqlite-database';
import { tempDir } from '../support/temp';
import { eventStoreContract } from './event-store.contract';
import { readStoreContract } from './read-store.contract';

function openDatabase(): { db: SqliteDatabase; close: () => Promise<void> } {
  const dir = tempDir();
  const db = new SqliteDatabase(join(dir.path, 'kora.db'));
  return {
    db,
    close: async () => {
      db.close();
      dir.cleanup();
    },
  };
}

eventStoreContract('embedded SQLite', async () => {
  const { db, close } = openDatabase();
  return { store: new SqliteEventStore(db, { pollIntervalMs: 50 }), close };
});

readStoreContract('embedded SQLite', async () => {
  const { db, close } = openDatabase();
  return { store: new SqliteReadStore(db), close };
});
