import { describe, expect, it } from '@jest/globals';
import { channelsDifference, sampleDifference } from './support/samples';

describe('sample comparison bit for bit (test support)', () => {
  const a = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i / 10));

  it('finds no difference between equal arrays, views at an offset included', () => {
    expect(sampleDifference(a, Float32Array.from(a))).toBeNull();
    const wide = new Float32Array(1010);
    wide.set(a, 10);
    expect(sampleDifference(wide.subarray(10), a)).toBeNull();
  });

  it('names the first differing sample, a length or channel count that differs, -0 against 0', () => {
    const b = Float32Array.from(a);
    b[437] = b[437]! + 1e-7;
    expect(sampleDifference(b, a)).toMatch(/^sample 437: /);
    expect(sampleDifference(a.subarray(1), a)).toBe('lengths 999 against 1000');
    expect(sampleDifference(Float32Array.of(-0), Float32Array.of(0))).toBe('sample 0: -0 against 0');
    expect(channelsDifference([a, b], [a, a])).toMatch(/^channel 1, sample 437: /);
    expect(channelsDifference([a], [a, a])).toBe('1 channels against 2');
  });
});
