import type { BatchHandler, ReadAllOptions, ReadAllResult, SubscribeOptions, Subscription } from './log-reading';
import { type Notifier, sleep } from './notifier';

export interface PullSource {
  readAll(options: ReadAllOptions): Promise<ReadAllResult>;
  /** Fires after every durable append made through this process. */
  readonly appended: Notifier;
  /** How long to wait for a wake-up before reading again, to see appends made by other processes. */
  readonly pollIntervalMs: number;
}

const RETRY_DELAY_MS = 1_000;

/**
 * A subscription built on reads: read a batch after the last position, hand it over, and when the log is drained
 * wait for an append notification (or the poll interval). Catch-up and live delivery are the same loop, so there is
 * no gap and no duplicate at the switch-over. A failing handler gets the same batch again after a delay.
 */
export function pullSubscription(source: PullSource, options: SubscribeOptions, handler: BatchHandler): Subscription {
  const abort = new AbortController();
  const batchSize = options.batchSize ?? 500;
  let position = options.after;

  const loop = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      const seen = source.appended.version;
      let drained: boolean;
      try {
        const { events, scannedTo } = await source.readAll({
          after: position,
          maxCount: batchSize,
          ...(options.types ? { types: options.types } : {}),
        });
        if (abort.signal.aborted) break;
        if (events.length > 0 || scannedTo > position) {
          await handler(events, scannedTo);
          position = scannedTo;
        }
        drained = events.length < batchSize;
      } catch (error) {
        if (abort.signal.aborted) break;
        options.onError?.(error);
        await sleep(RETRY_DELAY_MS, abort.signal);
        continue;
      }
      if (drained) await source.appended.wait(seen, source.pollIntervalMs, abort.signal, options.first === true);
    }
  };

  const running = loop();
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}
