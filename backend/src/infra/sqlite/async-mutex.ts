/**
 * Serialises async critical sections in FIFO order. better-sqlite3 is synchronous, but a read-store transaction
 * spans awaits; every writer in the process goes through this lock so two transactions never interleave on the
 * shared connection (and never block the event loop on SQLite's busy handler).
 */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();
  /** Whether a critical section is running now. */
  held = false;

  async run<R>(work: () => Promise<R> | R): Promise<R> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.held = true;
    try {
      return await work();
    } finally {
      this.held = false;
      release();
    }
  }
}
