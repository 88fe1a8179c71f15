import {
  type Checkpoint,
  type Collection,
  type Condition,
  type Document,
  escapeRegExp,
  type Filter,
  type FindOptions,
  type IndexSpec,
  ReadStore,
  type ReadStoreSession,
} from '@kora/kernel';
import { type ClientSession, type Db, type Filter as MongoFilter, MongoClient, type Sort } from 'mongodb';

const CHECKPOINTS = '_checkpoints';

interface CheckpointDoc {
  _id: string;
  position: number;
  version: number;
  updatedAt: string;
}

/** Our filter subset is Mongo's, except `$contains`, which becomes an escaped case-insensitive regex. */
export function toMongoFilter(filter: Filter): MongoFilter<Document> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      result[key] = (value as readonly Filter[]).map(toMongoFilter);
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const { $contains, ...rest } = value as Condition;
      result[key] = $contains === undefined ? rest : { ...rest, $regex: escapeRegExp($contains), $options: 'i' };
    } else {
      result[key] = value;
    }
  }
  return result as MongoFilter<Document>;
}

function toSort(sort: FindOptions['sort']): Sort {
  return { ...(sort ?? {}), ...(sort && '_id' in sort ? {} : { _id: 1 }) } as Sort;
}

/**
 * MongoDB adapter. Transactions need a replica set (the production topology has one); on a standalone server the
 * work runs without one, and projections stay correct through the per-document position guard. Renaming a
 * collection cannot join a transaction in MongoDB: `replaceCollection` renames with dropTarget, atomic on its own.
 */
export class MongoReadStore extends ReadStore {
  readonly kind = 'mongodb';
  private transactions: boolean | null = null;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    super();
  }

  static async connect(url: string): Promise<MongoReadStore> {
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    return new MongoReadStore(client, client.db());
  }

  collection<T extends Document = Document>(name: string): Collection<T> {
    return new MongoCollection<T>(this.db, name, undefined);
  }

  async transaction<R>(work: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    if (this.transactions === null) {
      const hello = await this.db.admin().command({ hello: 1 });
      this.transactions = Boolean(hello.setName) || hello.msg === 'isdbgrid';
    }
    if (!this.transactions) return work(new MongoSession(this.db, this.client, undefined));
    const session = this.client.startSession();
    try {
      let result!: R;
      await session.withTransaction(async () => {
        result = await work(new MongoSession(this.db, this.client, session));
      });
      return result;
    } finally {
      await session.endSession();
    }
  }

  getCheckpoint(name: string): Promise<Checkpoint | null> {
    return getCheckpoint(this.db, name, undefined);
  }

  setCheckpoint(name: string, checkpoint: Omit<Checkpoint, 'updatedAt'>): Promise<void> {
    return setCheckpoint(this.db, name, checkpoint, undefined);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await this.db.collection<CheckpointDoc>(CHECKPOINTS).deleteOne({ _id: name });
  }

  async listCheckpoints(): Promise<Array<Checkpoint & { name: string }>> {
    const docs = await this.db.collection<CheckpointDoc>(CHECKPOINTS).find({}).sort({ _id: 1 }).toArray();
    return docs.map((doc) => ({
      name: doc._id,
      position: doc.position,
      version: doc.version,
      updatedAt: doc.updatedAt,
    }));
  }

  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    const existing = await this.db.listCollections({ name: collection }).toArray();
    if (existing.length === 0) await this.db.createCollection(collection);
    for (const index of indexes) {
      await this.db.collection(collection).createIndex({ ...index.fields }, { unique: index.unique ?? false });
    }
  }

  async dropCollection(name: string): Promise<void> {
    await this.db
      .collection(name)
      .drop()
      .catch((error: { codeName?: string }) => {
        if (error.codeName !== 'NamespaceNotFound') throw error;
      });
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** The client, for adapters that share the connection (Socket.IO fan-out, GridFS). */
  get mongoClient(): MongoClient {
    return this.client;
  }
}

class MongoSession implements ReadStoreSession {
  constructor(
    private readonly db: Db,
    private readonly client: MongoClient,
    private readonly session: ClientSession | undefined,
  ) {}

  collection<T extends Document = Document>(name: string): Collection<T> {
    return new MongoCollection<T>(this.db, name, this.session);
  }

  getCheckpoint(name: string): Promise<Checkpoint | null> {
    return getCheckpoint(this.db, name, this.session);
  }

  setCheckpoint(name: string, checkpoint: Omit<Checkpoint, 'updatedAt'>): Promise<void> {
    return setCheckpoint(this.db, name, checkpoint, this.session);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await this.db.collection<CheckpointDoc>(CHECKPOINTS).deleteOne({ _id: name }, { session: this.session });
  }

  async replaceCollection(from: string, to: string): Promise<void> {
    const exists = await this.db.listCollections({ name: from }).toArray();
    if (exists.length === 0) await this.db.createCollection(from);
    await this.client.db(this.db.databaseName).renameCollection(from, to, { dropTarget: true });
  }
}

class MongoCollection<T extends Document> implements Collection<T> {
  constructor(
    private readonly db: Db,
    readonly name: string,
    private readonly session: ClientSession | undefined,
  ) {}

  private get raw() {
    return this.db.collection<Document>(this.name);
  }

  async findById(id: string): Promise<T | null> {
    return (await this.raw.findOne({ _id: id }, { session: this.session })) as T | null;
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.raw.find(toMongoFilter(filter), { session: this.session }).sort(toSort(options.sort));
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as T[];
  }

  count(filter: Filter = {}): Promise<number> {
    return this.raw.countDocuments(toMongoFilter(filter), { session: this.session });
  }

  async upsert(doc: T): Promise<void> {
    await this.raw.replaceOne({ _id: doc._id }, doc, { upsert: true, session: this.session });
  }

  async deleteById(id: string): Promise<boolean> {
    return (await this.raw.deleteOne({ _id: id }, { session: this.session })).deletedCount > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.raw.deleteMany(toMongoFilter(filter), { session: this.session })).deletedCount;
  }
}

async function getCheckpoint(db: Db, name: string, session: ClientSession | undefined): Promise<Checkpoint | null> {
  const doc = await db.collection<CheckpointDoc>(CHECKPOINTS).findOne({ _id: name }, { session });
  return doc ? { position: doc.position, version: doc.version, updatedAt: doc.updatedAt } : null;
}

async function setCheckpoint(
  db: Db,
  name: string,
  checkpoint: Omit<Checkpoint, 'updatedAt'>,
  session: ClientSession | undefined,
): Promise<void> {
  await db
    .collection<CheckpointDoc>(CHECKPOINTS)
    .replaceOne(
      { _id: name },
      { position: checkpoint.position, version: checkpoint.version, updatedAt: new Date().toISOString() },
      { upsert: true, session },
    );
}
