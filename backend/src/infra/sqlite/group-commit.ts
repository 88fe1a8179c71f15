import type { SqliteDatabase } from './sqlite-database';

/** A request waiting for its group's commit. */
export interface GroupRequest {
  reject(error: unknown): void;
}

/**
 * Group commit, as the event log's appends and the read store's relaxed transactions use it: requests asked for while
 * the previous group waits for the write lock, or in the same turn of the event loop, go into one transaction
 * (`commit`, run with the lock held), and each is answered after it (`settle`, with the outcome `commit` gave it). A
 * commit that throws fails the whole group: nothing of it is stored.
 */
export class GroupCommit<Q extends GroupRequest, O> {
  private readonly queued: Q[] = [];
  private flushing = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly commit: (group: Q[]) => Promise<O[]> | O[],
    private readonly settle: (group: readonly Q[], outcomes: readonly O[]) => Promise<void> | void,
  ) {}

  enqueue(request: Q): void {
    this.queued.push(request);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => void this.flush());
    }
  }

  private async flush(): Promise<void> {
    let group: Q[] = [];
    let outcomes: O[] | null = null;
    try {
      // Relaxed: the lock goes to the next group as soon as this one commits; `settle` may await durability.
      outcomes = await this.db.exclusive(
        () => {
          group = this.queued.splice(0); // taken with the lock held: whatever arrived while waiting joins
          return this.commit(group);
        },
        { relaxed: true },
      );
    } catch (error) {
      for (const request of group) request.reject(error); // the commit failed (disk full, I/O error): nothing stored
    } finally {
      if (this.queued.length > 0) setImmediate(() => void this.flush());
      else this.flushing = false;
    }
    if (outcomes) await this.settle(group, outcomes);
  }
}
