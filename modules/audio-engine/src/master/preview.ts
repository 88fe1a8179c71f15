/**
 * Choosing the most representative 30 seconds for the free preview, after the "audio thumbnailing" idea of
 * Bartsch & Wakefield (IEEE WASPAA 2001): the part of a song that repeats most (usually the chorus) is its best
 * summary. Features every 0.5 s are unit chroma vectors (12 pitch classes from an 8192-point FFT, 80 Hz-5 kHz);
 * for each candidate 30 s window the repetition score is the best mean similarity between the window and the same
 * window shifted by a lag of at least 10 s. Windows are ranked by standardised repetition plus standardised
 * loudness (the energetic part of a song is the one people recognise), and lightly penalised if they include the
 * first 5 s or the last 10 s (intros and fade-outs).
 */
import { RealFft, hann } from '../dsp/fft';
import { type Pcm, frameCount } from '../pcm';

export interface PreviewChoice {
  startSec: number;
  durationSec: number;
  repetition: number;
  loudnessDb: number;
  method: 'whole-track' | 'repetition-and-loudness';
}

const HOP_SEC = 0.5;
const FFT = 8192;

export function choosePreview(pcm: Pcm, durationSec = 30): PreviewChoice {
  const n = frameCount(pcm);
  const fs = pcm.sampleRate;
  const total = n / fs;
  if (total <= durationSec + 1) {
    return { startSec: 0, durationSec: total, repetition: 0, loudnessDb: 0, method: 'whole-track' };
  }
  const hop = Math.round(HOP_SEC * fs);
  const frames = Math.floor((n - FFT) / hop) + 1;
  const fft = new RealFft(FFT);
  const win = hann(FFT);
  const buf = new Float64Array(FFT);
  const re = new Float64Array(FFT / 2 + 1);
  const im = new Float64Array(FFT / 2 + 1);
  const chroma = new Float64Array(frames * 12);
  const energy = new Float64Array(frames);
  const pitchClass = new Int8Array(FFT / 2 + 1).fill(-1);
  for (let k = 1; k <= FFT / 2; k++) {
    const f = (k * fs) / FFT;
    if (f >= 80 && f <= 5000) pitchClass[k] = (((Math.round(12 * Math.log2(f / 440)) + 9) % 12) + 12) % 12;
  }
  const chs = pcm.channels;
  for (let t = 0; t < frames; t++) {
    const s = t * hop;
    let e = 0;
    for (let i = 0; i < FFT; i++) {
      let v = 0;
      for (const ch of chs) v += ch[s + i]!;
      v /= chs.length;
      e += v * v;
      buf[i] = v * win[i]!;
    }
    energy[t] = e / FFT;
    fft.forward(buf, re, im);
    const o = t * 12;
    for (let k = 1; k <= FFT / 2; k++) {
      const pc = pitchClass[k]!;
      if (pc >= 0) chroma[o + pc] = chroma[o + pc]! + Math.sqrt(re[k]! * re[k]! + im[k]! * im[k]!);
    }
    let norm = 0;
    for (let c = 0; c < 12; c++) norm += chroma[o + c]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let c = 0; c < 12; c++) chroma[o + c] = chroma[o + c]! / norm;
  }
  const wf = Math.round(durationSec / HOP_SEC);
  const windows = frames - wf + 1;
  if (windows <= 1) return { startSec: 0, durationSec, repetition: 0, loudnessDb: 0, method: 'whole-track' };
  const sim = (a: number, b: number) => {
    let s = 0;
    for (let c = 0; c < 12; c++) s += chroma[a * 12 + c]! * chroma[b * 12 + c]!;
    return s;
  };
  const minLag = Math.round(10 / HOP_SEC);
  const repetition = new Float64Array(windows);
  // For each lag, prefix sums of sim(j, j + lag) give every window's mean in O(1).
  const prefix = new Float64Array(frames + 1);
  for (let lag = minLag; lag < frames - wf / 2; lag++) {
    for (let j = 0; j < frames; j++) prefix[j + 1] = prefix[j]! + (j + lag < frames ? sim(j, j + lag) : 0);
    for (let i = 0; i < windows; i++) {
      // window shifted forward (i+lag) and backward (i-lag): the same pairs seen from either side
      const fwdEnd = Math.min(i + wf, frames - lag);
      if (fwdEnd - i >= wf * 0.75) {
        const m = (prefix[fwdEnd]! - prefix[i]!) / (fwdEnd - i);
        if (m > repetition[i]!) repetition[i] = m;
      }
      const b0 = i - lag;
      if (b0 >= 0) {
        const m = (prefix[b0 + wf]! - prefix[b0]!) / wf;
        if (m > repetition[i]!) repetition[i] = m;
      }
    }
  }
  const energyPrefix = new Float64Array(frames + 1);
  for (let t = 0; t < frames; t++) energyPrefix[t + 1] = energyPrefix[t]! + energy[t]!;
  const loud = Float64Array.from({ length: windows }, (_, i) => {
    const e = (energyPrefix[i + wf]! - energyPrefix[i]!) / wf;
    return e > 0 ? 10 * Math.log10(e) : -120;
  });
  const z = (x: Float64Array) => {
    const mean = x.reduce((a, b) => a + b, 0) / x.length;
    const sd = Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / x.length) || 1;
    return x.map((v) => (v - mean) / sd);
  };
  const zr = z(repetition);
  const zl = z(loud);
  let best = 0;
  let bestScore = -Infinity;
  for (let i = 0; i < windows; i++) {
    const start = i * HOP_SEC;
    let score = zr[i]! + zl[i]!;
    if (start < 5) score -= 0.5;
    if (start + durationSec > total - 10) score -= 0.5;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return {
    startSec: best * HOP_SEC,
    durationSec,
    repetition: Math.round(repetition[best]! * 1000) / 1000,
    loudnessDb: Math.round(loud[best]! * 100) / 100,
    method: 'repetition-and-loudness',
  };
}

/** Copies the chosen excerpt with a raised-cosine fade-in (1 s) and fade-out (2 s). */
export function extractPreview(pcm: Pcm, choice: PreviewChoice): Pcm {
  const fs = pcm.sampleRate;
  const start = Math.round(choice.startSec * fs);
  const length = Math.min(frameCount(pcm) - start, Math.round(choice.durationSec * fs));
  const fadeIn = Math.min(length / 4, fs);
  const fadeOut = Math.min(length / 4, 2 * fs);
  const channels = pcm.channels.map((ch) => {
    const out = ch.slice(start, start + length);
    for (let i = 0; i < fadeIn; i++) out[i]! *= 0.5 - 0.5 * Math.cos((Math.PI * i) / fadeIn);
    for (let i = 0; i < fadeOut; i++) out[length - 1 - i]! *= 0.5 - 0.5 * Math.cos((Math.PI * i) / fadeOut);
    return out;
  });
  return { sampleRate: fs, channels };
}
