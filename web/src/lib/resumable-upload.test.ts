import { describe, expect, it } from '@jest/globals';
import { RateMeter } from './resumable-upload';

describe('RateMeter', () => {
  it('says nothing before a second of samples, then the speed and the time left over its window', () => {
    const meter = new RateMeter(8_000);
    meter.add(0, 0);
    meter.add(500, 125_000);
    expect(meter.bytesPerSecond()).toBeNull();
    expect(meter.remainingMs(1_000_000)).toBeNull();
    meter.add(1_000, 250_000);
    expect(meter.bytesPerSecond()).toBe(250_000);
    expect(meter.remainingMs(1_000_000)).toBe(3_000);
  });

  it('follows the network as it changes: only the last seconds count', () => {
    const meter = new RateMeter(4_000);
    for (let t = 0; t <= 10_000; t += 1_000) meter.add(t, t * 1_000);
    // 1 MB/s for ten seconds, then 100 kB/s: after the window, only the new speed.
    for (let t = 11_000; t <= 16_000; t += 1_000) meter.add(t, 10_000_000 + (t - 10_000) * 100);
    expect(meter.bytesPerSecond()).toBeCloseTo(100_000, -2);
    meter.reset();
    expect(meter.bytesPerSecond()).toBeNull();
  });
});
