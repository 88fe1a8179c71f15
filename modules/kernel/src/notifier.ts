/**
 * A wake-up signal with a version counter, so that a waiter never misses a notification that fired between its
 * last read and its wait: `wait(since)` returns at once when the version has moved past `since`.
 */
export class Notifier {
  private current = 0;
  private waiters = new Set<() => void>();

  get version(): number {
    return this.current;
  }

  notify(): void {
    this.current += 1;
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next notification after `since`, after `timeoutMs`, or when `signal` aborts. */
  wait(since: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.current !== since || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref?.();
      this.waiters.add(done);
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
