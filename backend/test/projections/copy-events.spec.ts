import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { copyEvents } from '../../src/cli/copy-events';
import { libraryHistory } from '../support/sample-projection';
import { type EmbeddedStores, embeddedStores } from '../support/stores';
import { testEvent } from '../support/temp';

describe('copying the embedded log to another event store', () => {
  let source: EmbeddedStores;
  let target: EmbeddedStores;
  beforeEach(async () => {
    source = embeddedStores();
    target = embeddedStores();
    const history = libraryHistory(700);
    for (let i = 0; i < history.length; i += 7) {
      // Mix single and multi-event appends, as the product does.
      const [key] = history[i]!;
      const batch = history
        .slice(i, i + 7)
        .filter(([k]) => k === key)
        .map(([, event]) => event);
      await source.events.append(`lib-${key}`, batch, 'any');
    }
  });
  afterEach(() => {
    source.close();
    target.close();
  });

  const everything = async (stores: EmbeddedStores) =>
    (await stores.events.readAll({ after: 0, maxCount: 1_000_000 })).events.map(
      ({ id, type, data, metadata, streamName, revision }) => ({ id, type, data, metadata, streamName, revision }),
    );

  it('keeps every event, its id, its stream revision and the global order', async () => {
    const result = await copyEvents(source.events, target.events);
    const copied = await everything(target);
    expect(copied).toEqual(await everything(source));
    expect(result.copied).toBe(copied.length);
    expect(result.skipped).toBe(0);
  });

  it('can be run again after an interruption without writing anything twice', async () => {
    const all = (await source.events.readAll({ after: 0, maxCount: 1_000_000 })).events;
    // Copy the first 100 events by hand, as an interrupted run would have.
    for (const event of all.slice(0, 100)) {
      const { id, type, data, metadata } = event;
      await target.events.append(
        event.streamName,
        [{ id, type, data, metadata }],
        event.revision === 0 ? 'no_stream' : event.revision - 1,
      );
    }
    const result = await copyEvents(source.events, target.events);
    expect(result.skipped).toBe(100);
    expect(await everything(target)).toEqual(await everything(source));
    const again = await copyEvents(source.events, target.events);
    expect(again).toMatchObject({ copied: 0, skipped: all.length });
  });

  it('refuses to write into a stream that already diverges', async () => {
    const [first] = (await source.events.readAll({ after: 0, maxCount: 1 })).events;
    await target.events.append(first!.streamName, [testEvent('Unrelated')], 'no_stream');
    await expect(copyEvents(source.events, target.events)).rejects.toMatchObject({
      code: 'EVENTSTORE.WRONG_EXPECTED_REVISION',
    });
  });
});
