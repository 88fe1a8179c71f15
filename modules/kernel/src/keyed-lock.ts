/**
 * Runs work for one key at a time in this process (a credits stream, a user's uploads to one service), so concurrent
 * requests queue instead of racing; work that fails does not hold the next back, and a key is forgotten once nothing
 * waits on it. Other processes are not held off: the event store's expected revisions are.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
