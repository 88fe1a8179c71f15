/**
 * The read store port: a document store with a Mongo-style query subset, so the same query runs on the embedded
 * store and on MongoDB. Documents are plain JSON (strings, numbers, booleans, null, arrays, objects): dates are
 * ISO-8601 strings, which sort correctly as text.
 */
export type Document = { _id: string };

export type Scalar = string | number | boolean | null;

export interface Condition {
  $eq?: Scalar;
  $ne?: Scalar;
  $in?: readonly Scalar[];
  $nin?: readonly Scalar[];
  $gt?: string | number;
  $gte?: string | number;
  $lt?: string | number;
  $lte?: string | number;
  $exists?: boolean;
  /** Case-insensitive substring match; the text is matched literally, never as a pattern. */
  $contains?: string;
}

/** Field paths may be dotted (`owner.id`). Top-level `$and` / `$or` combine filters. */
export type Filter = { [path: string]: Scalar | Condition | readonly Filter[] | undefined } & {
  $and?: readonly Filter[];
  $or?: readonly Filter[];
};

export type SortSpec = Readonly<Record<string, 1 | -1>>;

export interface FindOptions {
  readonly sort?: SortSpec;
  readonly skip?: number;
  readonly limit?: number;
}

export interface IndexSpec {
  readonly fields: SortSpec;
  readonly unique?: boolean;
}

export interface Collection<T extends Document = Document> {
  readonly name: string;
  findById(id: string): Promise<T | null>;
  findOne(filter: Filter, options?: FindOptions): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter?: Filter): Promise<number>;
  /** Inserts, or replaces the whole document with the same `_id`. */
  upsert(doc: T): Promise<void>;
  deleteById(id: string): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
}

export interface Checkpoint {
  readonly position: number;
  /** The projection version that produced the read model (a changed version means a rebuild). */
  readonly version: number;
  readonly updatedAt: string;
}

/** What a transaction can do: the same collections, plus checkpoints, committed together or not at all. */
export interface ReadStoreSession {
  collection<T extends Document = Document>(name: string): Collection<T>;
  getCheckpoint(name: string): Promise<Checkpoint | null>;
  setCheckpoint(name: string, checkpoint: Omit<Checkpoint, 'updatedAt'>): Promise<void>;
  deleteCheckpoint(name: string): Promise<void>;
  /**
   * Replaces collection `to` with `from` (used to swap in a rebuilt read model). Atomic with the rest of the
   * transaction on the embedded store; on MongoDB a rename with dropTarget, which is atomic on its own.
   */
  replaceCollection(from: string, to: string): Promise<void>;
}

export interface TransactionOptions {
  /**
   * `relaxed`: the commit is atomic but need not be on disk when the promise resolves (a power cut may lose the last
   * ones, never tear one). Only for state rebuilt from the event log, such as a projection's batch and its
   * checkpoint; the default, `full`, is durable on resolve.
   */
  readonly durability?: 'full' | 'relaxed';
}

export abstract class ReadStore {
  abstract readonly kind: string;
  abstract collection<T extends Document = Document>(name: string): Collection<T>;
  /** Runs `work` in one transaction: every write in it, checkpoints included, commits together or not at all. */
  abstract transaction<R>(work: (session: ReadStoreSession) => Promise<R>, options?: TransactionOptions): Promise<R>;
  abstract getCheckpoint(name: string): Promise<Checkpoint | null>;
  abstract setCheckpoint(name: string, checkpoint: Omit<Checkpoint, 'updatedAt'>): Promise<void>;
  abstract deleteCheckpoint(name: string): Promise<void>;
  abstract listCheckpoints(): Promise<Array<Checkpoint & { name: string }>>;
  abstract ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void>;
  abstract dropCollection(name: string): Promise<void>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;
}

/**
 * The document with this id when it belongs to `userId`, else null: a lookup by key, the owner compared here, which
 * is cheaper than filtering on the owner in the store (a JSON field) and answers the same.
 */
export async function findOwned<T extends Document & { userId: string }>(
  collection: Collection<T>,
  id: string,
  userId: string,
): Promise<T | null> {
  const doc = await collection.findById(id);
  return doc && doc.userId === userId ? doc : null;
}

/** Escapes a string for literal use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
