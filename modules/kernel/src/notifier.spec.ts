import { describe, expect, it } from '@jest/globals';
import { Notifier } from './notifier';

describe('Notifier', () => {
  it('wakes a waiter that missed nothing on the next notification, and one that missed one at once', async () => {
    const notifier = new Notifier();
    const seen = notifier.version;
    const woken = notifier.wait(seen, 10_000);
    notifier.notify();
    await woken;
    await notifier.wait(seen, 10_000); // the version moved on: no wait
    expect(notifier.version).toBe(seen + 1);
  });

  it('lets the waiters that go first run their continuations to the end before the others start', async () => {
    const notifier = new Notifier();
    const order: string[] = [];
    // Each waiter goes through several promise turns after waking, as a subscription's read and handler do.
    const follow = async (name: string, first: boolean) => {
      await notifier.wait(notifier.version, 10_000, undefined, first);
      for (let turn = 1; turn <= 3; turn += 1) {
        order.push(`${name}${turn}`);
        await Promise.resolve();
      }
    };
    const running = [follow('a', false), follow('b', false), follow('p', true)];
    notifier.notify();
    await Promise.all(running);
    expect(order.slice(0, 3)).toEqual(['p1', 'p2', 'p3']);
    expect(order.slice(3).sort()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
  });

  it('without a waiter that goes first, wakes everyone in the same turn', async () => {
    const notifier = new Notifier();
    const order: string[] = [];
    const follow = async (name: string) => {
      await notifier.wait(notifier.version, 10_000);
      order.push(name);
    };
    const running = [follow('a'), follow('b')];
    notifier.notify();
    await Promise.resolve();
    expect(order).toEqual(['a', 'b']);
    await Promise.all(running);
  });

  it('forgets a waiter that timed out or was aborted', async () => {
    const notifier = new Notifier();
    await notifier.wait(notifier.version, 5, undefined, true);
    const abort = new AbortController();
    const aborted = notifier.wait(notifier.version, 10_000, abort.signal);
    abort.abort();
    await aborted;
    notifier.notify(); // nothing left to wake, nothing deferred
    expect(notifier.version).toBe(1);
  });
});
