/**
 * A wake-up signal with a version counter, so that a waiter never misses a notification that fired between its
 * last read and its wait: `wait(since)` returns at once when the version has moved past `since`.
 */
export class Notifier {
  private current = 0;
  private waiters = new Set<() => void>();
  private first = new Set<() => void>();

  get version(): number {
    return this.current;
  }

  /**
   * Wakes every waiter. Those that asked to go first are woken now, the others in the next turn of the event loop,
   * so the promise continuations of the first (a read and a handler that does not wait on I/O) run to the end
   * before the others start theirs.
   */
  notify(): void {
    this.current += 1;
    const first = this.first;
    const waiters = this.waiters;
    this.first = new Set();
    this.waiters = new Set();
    for (const wake of first) wake();
    if (first.size === 0) for (const wake of waiters) wake();
    else if (waiters.size > 0) setImmediate(() => waiters.forEach((wake) => wake()));
  }

  /**
   * Resolves on the next notification after `since`, after `timeoutMs`, or when `signal` aborts. With `first`, the
   * waiter is woken before those without it.
   */
  wait(since: number, timeoutMs: number, signal?: AbortSignal, first = false): Promise<void> {
    if (this.current !== since || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        this.first.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref?.();
      (first ? this.first : this.waiters).add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/** Sleeps, unless the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
