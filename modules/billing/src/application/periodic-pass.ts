/**
 * A pass that runs at start and then every `intervalMs` (0: at start only), one at a time: a call while a pass is
 * under way joins it. Its failures are the pass's own to log; the schedule never stops on one.
 */
export class PeriodicPass {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly pass: () => Promise<number>) {}

  start(intervalMs: number): void {
    setImmediate(() => void this.runOnce().catch(() => undefined));
    if (intervalMs > 0) {
      this.timer = setInterval(() => void this.runOnce().catch(() => undefined), intervalMs);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  runOnce(): Promise<number> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
