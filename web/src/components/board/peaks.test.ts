import { describe, expect, it } from '@jest/globals';
import { barScale, peaksOf } from './peaks';

const FAKE_RATE = 100;

describe('waveform peaks', () => {
  it('keeps the largest magnitude of each slice, per channel', () => {
    const left = new Float32Array([0.1, -0.9, 0.2, 0.3, -0.4, 0.05]);
    const right = new Float32Array([0, 0, 0.5, -0.6, 0, 0]);
    const buffer = { numberOfChannels: 2, getChannelData: (c: number) => (c === 0 ? left : right) };
    const [top, bottom] = peaksOf(buffer, 3);
    expect(Array.from(top ?? [])).toEqual([0.9, 0.3, 0.4].map(expect.closeTo));
    expect(Array.from(bottom ?? [])).toEqual([0, 0.6, 0].map(expect.closeTo));
  });

  it('draws at most two channels and never more bars than samples', () => {
    const samples = new Float32Array(FAKE_RATE);
    const buffer = { numberOfChannels: 6, getChannelData: () => samples };
    const peaks = peaksOf(buffer, 1600);
    expect(peaks).toHaveLength(2);
    expect(peaks[0]).toHaveLength(FAKE_RATE);
  });

  it('draws quiet rows up to 12 dB taller, leaves loud rows and silence as they are', () => {
    expect(barScale([new Float32Array([0.1, -0.2])])).toBeCloseTo(4, 6);
    expect(barScale([new Float32Array([0.5]), new Float32Array([-0.38])])).toBeCloseTo(1.9, 6);
    expect(barScale([new Float32Array([0.99])])).toBe(1);
    expect(barScale([new Float32Array(8)])).toBe(1);
  });
});
