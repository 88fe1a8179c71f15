import { describe, expect, it, jest } from '@jest/globals';
import { levelMatchedGains } from './levelMatch';
import { claim, nowPlaying, pauseCurrent, register, subscribe } from './nowPlaying';

/** An audio element whose play and pause behave as a browser's do (jsdom does not play media). */
function audio(): HTMLAudioElement {
  const element = document.createElement('audio');
  let paused = true;
  Object.defineProperty(element, 'paused', { get: () => paused });
  element.play = jest.fn(async () => {
    paused = false;
    element.dispatchEvent(new Event('play'));
  });
  element.pause = jest.fn(() => {
    if (paused) return;
    paused = true;
    element.dispatchEvent(new Event('pause'));
  });
  return element;
}

describe('one player at a time', () => {
  it('pauses the one playing when another starts, whoever started it', async () => {
    const [a, b, c] = [audio(), audio(), audio()];
    const offs = [register(a), register(b), register(c)];
    await a.play();
    expect(nowPlaying()).toBe(a);
    await b.play();
    expect(a.paused).toBe(true);
    expect(b.paused).toBe(false);
    // Started by something else (the waveform, the keyboard): the play event is enough.
    await c.play();
    expect([a.paused, b.paused, c.paused]).toEqual([true, true, false]);
    expect(nowPlaying()).toBe(c);
    offs.forEach((off) => off());
  });

  it('forgets an element that pauses or goes away, pausing it', async () => {
    const [a, b] = [audio(), audio()];
    const offA = register(a);
    const offB = register(b);
    await a.play();
    a.pause();
    expect(nowPlaying()).toBeNull();
    await b.play();
    offB();
    expect(b.paused).toBe(true);
    expect(nowPlaying()).toBeNull();
    offA();
  });

  it('tells listeners, and pauses the current one for a player outside the store', async () => {
    const a = audio();
    const off = register(a);
    const seen: Array<HTMLMediaElement | null> = [];
    const stop = subscribe((playing) => seen.push(playing));
    claim(a);
    await a.play();
    pauseCurrent();
    expect(a.paused).toBe(true);
    expect(seen.at(-1)).toBeNull();
    expect(seen).toContain(a);
    stop();
    off();
  });
});

describe('level-matched A/B gains', () => {
  it('turns the louder side down by the loudness difference', () => {
    // A master 6 LU louder than its mix plays at half the amplitude (-6 dB).
    const louder = levelMatchedGains(-20, -14);
    expect(louder.original).toBe(1);
    expect(louder.result).toBeCloseTo(0.501, 3);
    expect(louder.differenceLu).toBeCloseTo(6, 6);
    const quieter = levelMatchedGains(-9, -14);
    expect(quieter.result).toBe(1);
    expect(quieter.original).toBeCloseTo(0.562, 3);
  });

  it('plays both at full volume when a measure is missing or silent', () => {
    expect(levelMatchedGains(null, -14)).toEqual({ original: 1, result: 1, differenceLu: 0 });
    expect(levelMatchedGains(-14, undefined)).toEqual({ original: 1, result: 1, differenceLu: 0 });
    expect(levelMatchedGains(-70, -14)).toEqual({ original: 1, result: 1, differenceLu: 0 });
    expect(levelMatchedGains(-14, Number.NEGATIVE_INFINITY)).toEqual({ original: 1, result: 1, differenceLu: 0 });
  });

  it('matches loudness exactly: gain in dB plus loudness is equal on both sides', () => {
    for (const [before, after] of [
      [-23, -14],
      [-12, -16],
      [-14, -14],
    ] as const) {
      const gains = levelMatchedGains(before, after);
      const heardOriginal = before + 20 * Math.log10(gains.original);
      const heardResult = after + 20 * Math.log10(gains.result);
      expect(heardResult).toBeCloseTo(heardOriginal, 6);
    }
  });
});
