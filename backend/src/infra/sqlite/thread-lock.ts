/**
 * SQLite's write lock, taken by the threads of one process before they write to the same file: an `Int32Array`
 * cell in shared memory (0 free, 1 held). A thread that finds it held waits with `Atomics.waitAsync`, so its event
 * loop goes on; SQLite's own busy handler would sleep the thread instead (1 ms and more at a time, on the thread that
 * answers requests). Fair enough for two threads: a release wakes one waiter, and an uncontended take is one
 * compare-and-swap.
 */
/** `Atomics.waitAsync` (ES2024, in Node since 16), which this project's TypeScript library does not declare yet. */
export const waitAsync = (
  Atomics as unknown as {
    waitAsync(cell: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

export class ThreadLock {
  /** Who holds the lock, in the cell: the main thread's connections by default. */
  static readonly MAIN = 1;
  private readonly cell: Int32Array;

  /** `owner`: this side's mark in the cell (non-zero), so a side that died holding the lock can be told apart. */
  constructor(
    readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4),
    private readonly owner: number = ThreadLock.MAIN,
  ) {
    this.cell = new Int32Array(buffer);
  }

  async acquire(): Promise<void> {
    for (;;) {
      const holder = Atomics.compareExchange(this.cell, 0, 0, this.owner);
      if (holder === 0) return;
      const wait = waitAsync(this.cell, 0, holder);
      if (wait.async) await wait.value;
    }
  }

  release(): void {
    Atomics.store(this.cell, 0, 0);
    Atomics.notify(this.cell, 0, 1);
  }

  /**
   * Frees the lock if `owner` holds it: a thread that ended while it held it (SQLite rolled its transaction back when
   * its connection went) would otherwise hold every writer of the process for ever.
   */
  releaseIfHeldBy(owner: number): void {
    if (Atomics.compareExchange(this.cell, 0, owner, 0) === owner) Atomics.notify(this.cell, 0, 1);
  }
}
