import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';

/**
 * Work a request starts but does not wait for: whatever depends on whether an address has an account (looking it
 * up, recording the request, sending the mail) runs after the answer, so the answer and its timing are the same
 * for every address. Failures are logged; shutdown waits for what is still running.
 */
@Injectable()
export class AfterResponse implements BeforeApplicationShutdown {
  private readonly logger = new Logger(AfterResponse.name);
  private readonly running = new Set<Promise<void>>();

  run(name: string, work: () => Promise<void>): void {
    const task = Promise.resolve()
      .then(work)
      .catch((error: unknown) => this.logger.error(`${name} failed`, error instanceof Error ? error.stack : error))
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Resolves once nothing started so far is still running (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.idle();
  }
}
