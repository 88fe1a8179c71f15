import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { type Processor, ProcessorRunner, type RecordedEvent } from '@kora/kernel';
import { type EmbeddedStores, embeddedStores } from '../support/stores';
import { testEvent } from '../support/temp';

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ProcessorRunner', () => {
  let stores: EmbeddedStores;
  beforeEach(() => {
    stores = embeddedStores();
  });
  afterEach(() => stores.close());

  it('handles each event once, keeps past the events it ignores in memory, and resumes from its checkpoint', async () => {
    const handled: string[] = [];
    const processor: Processor = {
      name: 'greeter',
      handles: ['Greeted'],
      handle: async (event: RecordedEvent) => {
        handled.push(event.id);
      },
    };
    const checkpoint = async () => (await stores.reads.getCheckpoint('processor:greeter'))?.position ?? 0;
    const runner = new ProcessorRunner(stores.events, stores.reads, [processor]);
    await runner.start();
    const first = testEvent('Greeted');
    const second = testEvent('Greeted');
    try {
      await stores.events.append('greet-1', [first], 'any');
      await until(async () => handled.length === 1 && (await checkpoint()) === (await stores.events.headPosition()));
      const stored = await checkpoint();

      // Other modules' events: no write for them (one fsynced commit each before), nothing handled.
      for (let i = 0; i < 20; i += 1) await stores.events.append(`other-${i}`, [testEvent('Ignored')], 'any');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await checkpoint()).toBe(stored);

      await stores.events.append('greet-2', [second], 'any');
      await until(async () => (await checkpoint()) === (await stores.events.headPosition()));
      expect(handled).toEqual([first.id, second.id]);
    } finally {
      await runner.stop();
    }

    // A new process resumes after the stored checkpoint: nothing handled twice.
    const again = new ProcessorRunner(stores.events, stores.reads, [processor]);
    await again.drain();
    expect(handled).toEqual([first.id, second.id]);
  });
});
