import { describe, expect, it } from '@jest/globals';
import { KeyedLock } from './keyed-lock';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedLock', () => {
  it('runs the work of one key one at a time, in order, and other keys beside it', async () => {
    const lock = new KeyedLock();
    const trail: string[] = [];
    const work = (name: string) => async () => {
      trail.push(`${name} in`);
      await tick();
      trail.push(`${name} out`);
      return name;
    };
    const results = await Promise.all([
      lock.run('a', work('a1')),
      lock.run('a', work('a2')),
      lock.run('b', work('b1')),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(trail.indexOf('a1 out')).toBeLessThan(trail.indexOf('a2 in'));
    expect(trail.indexOf('b1 in')).toBeLessThan(trail.indexOf('a1 out'));
  });

  it('lets the next run after a failure, which reaches only its own caller', async () => {
    const lock = new KeyedLock();
    const failed = lock.run('a', async () => {
      await tick();
      throw new Error('refused');
    });
    const next = lock.run('a', async () => 'next');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('next');
  });

  it('forgets a key once nothing waits on it', async () => {
    const lock = new KeyedLock();
    const first = lock.run('a', tick);
    const second = lock.run('a', tick);
    expect(lock.size).toBe(1);
    await Promise.all([first, second]);
    await lock
      .run('b', async () => {
        throw new Error('x');
      })
      .catch(() => undefined);
    expect(lock.size).toBe(0);
  });
});
