import type { EventStore } from './event-store';
import type { RecordedEvent } from './events';
import { Notifier, sleep } from './notifier';
import { type AnyProjection, evolveDocument, type Projected } from './projection';
import type { Document, ReadStore, ReadStoreSession } from './read-store';

export interface RunnerLogger {
  info(context: Record<string, unknown>, message: string): void;
  error(context: Record<string, unknown>, message: string): void;
}

export interface ProjectionStatus {
  readonly name: string;
  readonly version: number;
  /** Version of the stored read model, null before its first checkpoint. */
  readonly storedVersion: number | null;
  readonly position: number;
  readonly head: number;
  /** Events in the log after the checkpoint (capped at one million). */
  readonly lag: number;
  readonly running: boolean;
  readonly lastError: string | null;
}

export interface RebuildProgress {
  readonly projection: string;
  readonly position: number;
  readonly head: number;
  /** Events handled so far (events of other types are skipped without counting). */
  readonly applied: number;
}

export interface RebuildResult {
  readonly projection: string;
  readonly applied: number;
  readonly position: number;
  readonly documents: number;
  readonly milliseconds: number;
}

interface Target {
  readonly collection: string;
  readonly checkpoint: string;
}

interface StepResult {
  readonly position: number;
  readonly applied: number;
  readonly drained: boolean;
}

interface LiveState {
  position: number;
  running: boolean;
  lastError: string | null;
  lag: number;
}

/** Where a projection's live loop stands after a step (what `onStep` reports, and a remote runner sends back). */
export interface ProjectionState extends LiveState {
  readonly name: string;
}

/**
 * Projections that run somewhere else than the process's event loop (a worker thread of the same process), from
 * their own checkpoints in the same stores. The runner then keeps only their states, as `onState` reports them, so
 * `waitFor`, `status` and `lastKnownLag` answer as if the loops ran here.
 */
export interface RemoteProjections {
  /** Starts them; `onState` is called with each step's state, `onFailed` once if they stop running there. */
  start(onState: (state: ProjectionState) => void, onFailed: (error: Error) => void): Promise<void>;
  stop(): Promise<void>;
}

const SHADOW_SUFFIX = '__rebuild';
const ERROR_BACKOFF_MS = 1_000;
const LAG_COUNT_CAP = 1_000_000;
const LAZY_CHECKPOINT_GAP = 10_000;

/**
 * Feeds each projection from its checkpoint. A batch of events and the checkpoint that follows it commit in one
 * read-store transaction, guarded by the checkpoint read in that transaction ("the checkpoint is the lock"), so
 * two runners on the same projection never apply a batch twice. Each document also remembers the position of the
 * last event applied to it, so an event replayed after a crash changes nothing.
 *
 * Rebuilds write into a shadow collection and swap it in at the end: readers keep the old read model until the new
 * one is complete and caught up.
 */
export class ProjectionRunner {
  private readonly definitions = new Map<string, AnyProjection>();
  private readonly live = new Map<string, LiveState>();
  private readonly loops: Promise<void>[] = [];
  private readonly progress = new Notifier();
  private abort = new AbortController();
  private readonly batchSize: number;
  private readonly logger: RunnerLogger | undefined;
  private readonly remote: RemoteProjections | undefined;
  private readonly onStep: ((state: ProjectionState) => void) | undefined;
  private remoteRunning = false;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    projections: readonly AnyProjection[],
    options: {
      batchSize?: number;
      logger?: RunnerLogger;
      /** Run the live loops there rather than here; here again if they fail there. */
      remote?: RemoteProjections;
      /** Told after each step of a live loop. */
      onStep?: (state: ProjectionState) => void;
    } = {},
  ) {
    for (const projection of projections) {
      if (this.definitions.has(projection.name)) throw new Error(`Duplicate projection ${projection.name}`);
      if (projection.name.endsWith(SHADOW_SUFFIX)) throw new Error(`Reserved projection name ${projection.name}`);
      this.definitions.set(projection.name, projection);
    }
    this.batchSize = options.batchSize ?? 1_000;
    this.logger = options.logger;
    this.remote = options.remote;
    this.onStep = options.onStep;
  }

  get names(): string[] {
    return [...this.definitions.keys()];
  }

  /** Where the live loops run: on this event loop, or `remote` (see `RemoteProjections`). */
  get where(): 'here' | 'remote' {
    return this.remoteRunning ? 'remote' : 'here';
  }

  /**
   * Counts the steps this process's projections have taken (a step commits before it counts): when it has not
   * changed, no read model changed here. A value read from the store may be reused while it stays the same.
   */
  get progressVersion(): number {
    return this.progress.version;
  }

  /**
   * Starts one loop per projection. A projection whose stored version differs is rebuilt first. With `remote`, the
   * loops run there; if they cannot start or later fail, they run here from their checkpoints.
   */
  async start(): Promise<void> {
    this.abort = new AbortController();
    const starts: Array<{ definition: AnyProjection; state: LiveState; stale: boolean }> = [];
    for (const definition of this.definitions.values()) {
      await this.store.ensureIndexes(definition.collection, definition.indexes ?? []);
      const checkpoint = await this.store.getCheckpoint(definition.name);
      const state: LiveState = { position: checkpoint?.position ?? 0, running: true, lastError: null, lag: 0 };
      this.live.set(definition.name, state);
      starts.push({ definition, state, stale: checkpoint !== null && checkpoint.version !== definition.version });
    }
    const runHere = (): void => {
      for (const { definition, state, stale } of starts) this.loops.push(this.runLive(definition, state, stale));
    };
    if (!this.remote) return runHere();
    const failed = (error: Error): void => {
      if (!this.remoteRunning || this.abort.signal.aborted) return;
      this.remoteRunning = false;
      this.logger?.error({ err: error }, 'the projections stopped running off the event loop; running them here');
      runHere();
    };
    this.remoteRunning = true;
    try {
      await this.remote.start((remote) => this.remoteState(remote), failed);
    } catch (error) {
      failed(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** A step taken by a remote loop: its state replaces the one kept here, and waiters look again. */
  private remoteState(remote: ProjectionState): void {
    const state = this.live.get(remote.name);
    if (!state || !this.remoteRunning) return;
    state.position = Math.max(state.position, remote.position);
    state.running = remote.running;
    state.lastError = remote.lastError;
    state.lag = remote.lag;
    this.progress.notify();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    if (this.remoteRunning) {
      this.remoteRunning = false;
      await this.remote!.stop();
    }
    await Promise.all(this.loops.splice(0));
    for (const state of this.live.values()) state.running = false;
  }

  /**
   * Resolves true once every running projection has processed the log up to `position` (read-your-writes for a
   * request that just appended), false after `timeoutMs`.
   */
  async waitFor(position: number, timeoutMs = 5_000, names?: readonly string[]): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (const name of names ?? []) this.definition(name); // an unknown name is a bug, not a wait
    const states = (names ?? this.names).map((name) => this.live.get(name)).filter((s) => s?.running);
    for (;;) {
      const seen = this.progress.version;
      if (states.every((state) => state!.position >= position)) return true;
      const left = deadline - Date.now();
      if (left <= 0 || this.abort.signal.aborted) return false;
      await this.progress.wait(seen, left, this.abort.signal);
    }
  }

  /** Processes the log up to its current head, without waiting for new events (tests, CLI). */
  async catchUp(name: string): Promise<number> {
    const definition = this.definition(name);
    const target = { collection: definition.collection, checkpoint: definition.name };
    await this.store.ensureIndexes(definition.collection, definition.indexes ?? []);
    const head = await this.events.headPosition();
    let applied = 0;
    for (;;) {
      const step = await this.step(definition, target);
      applied += step.applied;
      if (step.drained && step.position >= head) return applied;
    }
  }

  /** Builds the read model from zero into a shadow collection, then swaps it in. */
  async rebuild(name: string, onProgress?: (progress: RebuildProgress) => void): Promise<RebuildResult> {
    const started = Date.now();
    const definition = this.definition(name);
    const shadow: Target = {
      collection: `${definition.collection}${SHADOW_SUFFIX}`,
      checkpoint: `${definition.name}${SHADOW_SUFFIX}`,
    };
    await this.store.dropCollection(shadow.collection);
    await this.store.deleteCheckpoint(shadow.checkpoint);
    await this.store.ensureIndexes(shadow.collection, definition.indexes ?? []);

    let applied = 0;
    let head = await this.events.headPosition();
    for (;;) {
      const step = await this.step(definition, shadow);
      applied += step.applied;
      onProgress?.({ projection: name, position: step.position, head, applied });
      if (!step.drained || step.position < head) continue;
      // Caught up with the head seen at the start: swap, unless a live runner has meanwhile gone further.
      const swapped = await this.store.transaction(
        async (tx) => {
          const live = (await tx.getCheckpoint(definition.name))?.position ?? 0;
          const built = (await tx.getCheckpoint(shadow.checkpoint))?.position ?? 0;
          if (built < live) return false;
          await tx.replaceCollection(shadow.collection, definition.collection);
          await tx.setCheckpoint(definition.name, { position: built, version: definition.version });
          await tx.deleteCheckpoint(shadow.checkpoint);
          return true;
        },
        { durability: 'relaxed' },
      );
      if (swapped) {
        const state = this.live.get(name);
        if (state) state.position = Math.max(state.position, step.position);
        const documents = await this.store.collection(definition.collection).count();
        return { projection: name, applied, position: step.position, documents, milliseconds: Date.now() - started };
      }
      head = await this.events.headPosition();
    }
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.events.headPosition();
    const result: ProjectionStatus[] = [];
    for (const definition of this.definitions.values()) {
      const checkpoint = await this.store.getCheckpoint(definition.name);
      const state = this.live.get(definition.name);
      // A running loop may be ahead of its stored checkpoint by events it has no handler for (see `step`).
      const position = Math.max(checkpoint?.position ?? 0, state?.running ? state.position : 0);
      result.push({
        name: definition.name,
        version: definition.version,
        storedVersion: checkpoint?.version ?? null,
        position,
        head,
        lag: position >= head ? 0 : await this.events.countAfter(position, LAG_COUNT_CAP),
        running: state?.running ?? false,
        lastError: state?.lastError ?? null,
      });
    }
    return result;
  }

  /** Lag of each running projection as of its last step, without touching the stores (metrics). */
  lastKnownLag(): Array<{ name: string; lag: number }> {
    return [...this.live.entries()].map(([name, state]) => ({ name, lag: state.lag }));
  }

  private definition(name: string): AnyProjection {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown projection ${name}; known: ${this.names.join(', ')}`);
    return definition;
  }

  private async runLive(definition: AnyProjection, state: LiveState, rebuildFirst: boolean): Promise<void> {
    const target = { collection: definition.collection, checkpoint: definition.name };
    const signal = this.abort.signal;
    let needsRebuild = rebuildFirst;
    while (!signal.aborted) {
      const seen = this.events.appended.version;
      try {
        if (needsRebuild) {
          this.logger?.info({ projection: definition.name }, 'projection version changed: rebuilding');
          await this.rebuild(definition.name);
          needsRebuild = false;
        }
        const step = await this.step(definition, target, state.position, true);
        state.position = step.position;
        state.lastError = null;
        this.progress.notify();
        if (step.drained) {
          state.lag = 0;
          this.onStep?.({ name: definition.name, ...state });
          await this.events.appended.wait(seen, this.events.pollIntervalMs, signal);
        } else {
          state.lag = await this.events.countAfter(step.position, LAG_COUNT_CAP);
          this.onStep?.({ name: definition.name, ...state });
        }
      } catch (error) {
        if (signal.aborted) break;
        state.lastError = error instanceof Error ? error.message : String(error);
        this.onStep?.({ name: definition.name, ...state });
        this.logger?.error({ projection: definition.name, err: error }, 'projection step failed; retrying');
        await sleep(ERROR_BACKOFF_MS, signal);
      }
    }
  }

  /**
   * Reads one batch after the stored checkpoint (or after `scanned`, a position up to which the live loop knows the
   * log holds nothing for this projection) and applies it together with the next checkpoint, in a relaxed commit:
   * the read model and its checkpoint are rebuilt from the log, so a power cut may take back the last batches but
   * never half of one. With `lazy`, a batch with no event for this projection commits nothing: the live loop keeps the
   * position in memory and the stored checkpoint follows with the next batch that applies something, or once it
   * lags LAZY_CHECKPOINT_GAP positions behind (so a restart never rescans much).
   */
  private async step(definition: AnyProjection, target: Target, scanned = 0, lazy = false): Promise<StepResult> {
    const stored = (await this.store.getCheckpoint(target.checkpoint))?.position ?? 0;
    const from = Math.max(stored, scanned);
    const { events, scannedTo } = await this.events.readAll({
      after: from,
      maxCount: this.batchSize,
      types: definition.handles,
    });
    if (scannedTo <= from) return { position: from, applied: 0, drained: true };
    const drained = events.length < this.batchSize;
    if (lazy && events.length === 0 && scannedTo - stored < LAZY_CHECKPOINT_GAP) {
      return { position: scannedTo, applied: 0, drained };
    }
    const applied = await this.store.transaction(
      async (tx) => {
        const current = (await tx.getCheckpoint(target.checkpoint))?.position ?? 0;
        if (current !== stored) return null; // another runner moved it: read again from there
        const count = await applyEvents(definition, tx, target.collection, events);
        await tx.setCheckpoint(target.checkpoint, { position: scannedTo, version: definition.version });
        return count;
      },
      { durability: 'relaxed' },
    );
    if (applied === null) return { position: stored, applied: 0, drained: false };
    return { position: scannedTo, applied, drained };
  }
}

/**
 * Applies a batch inside a transaction. Documents are loaded once, evolved in memory and written once per batch.
 * An event at or below the `_position` a document had when it was loaded was applied by an earlier batch and is
 * skipped; events of this batch compare with that loaded position, so events sharing a position all apply.
 */
async function applyEvents(
  definition: AnyProjection,
  tx: ReadStoreSession,
  collectionName: string,
  events: readonly RecordedEvent[],
): Promise<number> {
  const collection = tx.collection<Projected<Document>>(collectionName);
  const handles = new Set<string>(definition.handles);
  const cache = new Map<string, Projected<Document> | null>();
  const loadedAt = new Map<string, number>();
  const dirty = new Set<string>();
  const load = (doc: Projected<Document> | null, id: string): Projected<Document> | null => {
    cache.set(id, doc);
    if (!loadedAt.has(id)) loadedAt.set(id, doc?._position ?? 0);
    return doc;
  };

  const flush = async (): Promise<void> => {
    for (const id of dirty) {
      const doc = cache.get(id);
      if (doc) await collection.upsert(doc);
      else await collection.deleteById(id);
    }
    dirty.clear();
  };

  let applied = 0;
  for (const event of events) {
    if (!handles.has(event.type)) continue;
    const target = definition.target(event);
    if (!target) continue;
    let ids: string[];
    if ('id' in target) {
      ids = [target.id];
    } else {
      await flush();
      const matches = await collection.find(target.where);
      ids = matches.map((doc) => load(doc, doc._id)!._id);
    }
    for (const id of ids) {
      const current = cache.has(id) ? cache.get(id)! : load(await collection.findById(id), id);
      if ((loadedAt.get(id) ?? 0) >= event.position) continue;
      cache.set(id, evolveDocument(definition, id, current, event));
      dirty.add(id);
    }
    applied += 1;
  }
  await flush();
  return applied;
}
