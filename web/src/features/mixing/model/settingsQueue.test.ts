import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { SettingsQueue } from './settingsQueue';

describe('SettingsQueue (spec §5: settings sent after 300 ms, undefined dropped)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('sends a track’s changes 300 ms after the last one, together, without undefined values', () => {
    const send = jest.fn();
    const queue = new SettingsQueue(send);
    queue.change('t1', { panPreference: 'LEFT', reverbPreference: undefined });
    jest.advanceTimersByTime(200);
    queue.change('t1', { presenceSetting: 'LEAD' });
    jest.advanceTimersByTime(299);
    expect(send).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith('t1', { panPreference: 'LEFT', presenceSetting: 'LEAD' });
  });

  it('keeps the last value of a field, and times each track on its own', () => {
    const send = jest.fn();
    const queue = new SettingsQueue(send);
    queue.change('t1', { panPreference: 'LEFT' });
    queue.change('t1', { panPreference: 'RIGHT' });
    jest.advanceTimersByTime(150);
    queue.change('t2', { reverbPreference: 'HIGH' });
    jest.advanceTimersByTime(150);
    expect(send.mock.calls).toEqual([['t1', { panPreference: 'RIGHT' }]]);
    jest.advanceTimersByTime(150);
    expect(send.mock.calls).toEqual([
      ['t1', { panPreference: 'RIGHT' }],
      ['t2', { reverbPreference: 'HIGH' }],
    ]);
  });

  it('sends nothing for a change made only of undefined values; flushes at once on demand', () => {
    const send = jest.fn();
    const queue = new SettingsQueue(send);
    queue.change('t1', { panPreference: undefined });
    jest.advanceTimersByTime(300);
    expect(send).not.toHaveBeenCalled();
    queue.change('t2', { instrumentGroup: 'bass' });
    queue.flushAll();
    expect(send).toHaveBeenCalledWith('t2', { instrumentGroup: 'bass' });
    jest.advanceTimersByTime(300);
    expect(send).toHaveBeenCalledTimes(1);
    queue.change('t3', { panPreference: 'LEFT' });
    queue.dispose();
    jest.advanceTimersByTime(300);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
