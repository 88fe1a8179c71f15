import { describe, expect, it } from '@jest/globals';
import { measureLoudness } from '../src/analysis/loudness';
import { synthesizeDemoSong, synthesizeDemoVoice } from '../src/demo/synth';
import { detectHum } from '../src/enhance/hum';
import { trackPitch } from '../src/stems/pitch';
import { stft } from '../src/stems/stft';
import type { Pcm } from '../src/pcm';
import { channelsDifference, sampleDifference } from './support/samples';

const peakDb = (p: Pcm) => {
  let m = 0;
  for (const ch of p.channels) for (const v of ch) m = Math.max(m, Math.abs(v));
  return 20 * Math.log10(m);
};

describe('synthesizeDemoSong', () => {
  const song = synthesizeDemoSong({ seconds: 12, sampleRate: 44100, seed: 5 });

  it('returns stereo stems of the requested length whose sum is exactly the mixture', () => {
    expect(Object.keys(song.stems).sort()).toEqual(['bass', 'drums', 'keys', 'vocals']);
    const n = 12 * 44100;
    let err = 0;
    for (let c = 0; c < 2; c++) {
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (const stem of Object.values(song.stems)) s += stem.channels[c]![i]!;
        err = Math.max(err, Math.abs(s - song.mixture.channels[c]![i]!));
      }
    }
    for (const stem of Object.values(song.stems)) expect(stem.channels.map((c) => c.length)).toEqual([n, n]);
    expect(err).toBeLessThan(1e-6);
  });

  it('is an unmastered mix: peaks at -3 dBFS, loudness between -22 and -12 LUFS, every part audible', () => {
    expect(peakDb(song.mixture)).toBeCloseTo(-3, 2);
    const mix = measureLoudness(song.mixture.channels, 44100).integratedLufs;
    expect(mix).toBeGreaterThan(-22);
    expect(mix).toBeLessThan(-12);
    for (const stem of Object.values(song.stems)) {
      expect(measureLoudness(stem.channels, 44100).integratedLufs).toBeGreaterThan(mix - 12);
    }
  });

  it('is reproducible for a seed and different for another', () => {
    const again = synthesizeDemoSong({ seconds: 12, sampleRate: 44100, seed: 5 });
    const other = synthesizeDemoSong({ seconds: 12, sampleRate: 44100, seed: 6 });
    expect(channelsDifference(again.mixture.channels, song.mixture.channels)).toBeNull();
    expect(sampleDifference(other.mixture.channels[0]!, song.mixture.channels[0]!)).not.toBeNull();
  });

  it('sings: the vocal stem has a pitch in the singing range (200-800 Hz) most of the time it sounds', async () => {
    const vocal = song.stems.vocals;
    const spec = await stft(vocal.channels, 4096);
    const mag = new Float32Array(spec.frames * spec.bins);
    for (let i = 0; i < mag.length; i++) mag[i] = Math.hypot(spec.re[0]![i]!, spec.im[0]![i]!);
    const track = await trackPitch(mag, {
      sampleRate: 44100,
      fftSize: 4096,
      bins: spec.bins,
      frames: spec.frames,
      fminHz: 80,
      fmaxHz: 1200,
      maxHarmonicHz: 5000,
    });
    const voiced = Array.from(track.f0).filter((f) => f > 0);
    expect(voiced.length / track.f0.length).toBeGreaterThan(0.4);
    expect(voiced.filter((f) => f >= 200 && f <= 800).length / voiced.length).toBeGreaterThan(0.9);
  });
});

describe('synthesizeDemoVoice', () => {
  const voice = synthesizeDemoVoice({ seconds: 10, sampleRate: 48000, seed: 2 });

  it('is a mono 48 kHz recording with 50 Hz mains hum the enhancement can find', async () => {
    expect(voice.channels).toHaveLength(1);
    expect(voice.channels[0]!.length).toBe(480000);
    const hum = await detectHum(voice.channels, 48000);
    expect(hum.detected).toBe(true);
    expect(hum.family).toBe(50);
    expect(hum.fundamentalHz!).toBeCloseTo(50, 0);
  });

  it('sounds like speech: syllables and pauses (100 ms levels spread over 10 dB), peaks at -6 dBFS', () => {
    expect(peakDb(voice)).toBeCloseTo(-6, 2);
    const x = voice.channels[0]!;
    const block = 4800;
    const levels: number[] = [];
    for (let s = 0; s + block <= x.length; s += block) {
      let e = 0;
      for (let i = s; i < s + block; i++) e += x[i]! * x[i]!;
      levels.push(10 * Math.log10(e / block));
    }
    levels.sort((a, b) => a - b);
    expect(levels[Math.floor(levels.length * 0.95)]! - levels[Math.floor(levels.length * 0.1)]!).toBeGreaterThan(10);
  });
});
