/**
 * Measures used by the evaluation and the tests: an independent loudness meter (ffmpeg's ebur128 filter), SI-SDR,
 * and the level of a hum (sum of sinusoids at known frequencies) by least squares.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { toolPath } from '../src/io/tools';

export interface FfmpegLoudness {
  integratedLufs: number;
  lraLu: number;
  /** Largest true peak over all channels (ffmpeg resamples to 192 kHz), dBTP. */
  truePeakDbtp: number;
}

/**
 * Loudness and true peak of a file as measured by ffmpeg's ebur128 filter, read from its per-frame metadata (three
 * decimals of linear true peak, i.e. +-0.005 dB near -1 dBTP) rather than its one-decimal summary. Mono files are
 * measured as dual mono (`dualmono=true`), as the engine measures them.
 */
export function ffmpegLoudness(file: string, options: { dualMono?: boolean } = {}): Promise<FfmpegLoudness> {
  // dualmono: a mono file is measured as it plays on two speakers (+3.01 dB), the engine's own rule.
  const dual = options.dualMono === false ? '' : ':dualmono=true';
  const args = [
    '-hide_banner',
    '-nostats',
    '-i',
    file,
    '-af',
    `ebur128=peak=true${dual}:metadata=1,ametadata=mode=print:file=-`,
  ];
  args.push('-f', 'null', '-');
  return new Promise((resolve, reject) => {
    execFile(toolPath('ffmpeg'), args, { maxBuffer: 512 * 1024 * 1024 }, (error, stdout) => {
      if (error) {
        reject(error);
        return;
      }
      const last = (key: string): number => {
        let value = NaN;
        for (const m of stdout.matchAll(new RegExp(`^lavfi\\.r128\\.${key}=(\\S+)$`, 'gm'))) value = Number(m[1]);
        return value;
      };
      // `true_peak` (all channels) exists from ffmpeg 4.4; every version prints `true_peaks_ch<n>` (running maxima).
      let peak = -1;
      for (const m of stdout.matchAll(/^lavfi\.r128\.true_peaks?(?:_ch\d+)?=(\S+)$/gm)) {
        peak = Math.max(peak, Number(m[1]));
      }
      if (peak < 0) {
        reject(new Error(`ffmpeg's ebur128 printed no true peak for ${file}`));
        return;
      }
      resolve({
        integratedLufs: last('I'),
        lraLu: last('LRA'),
        truePeakDbtp: peak > 0 ? 20 * Math.log10(peak) : -Infinity,
      });
    });
  });
}

/** Optimal scale of `reference` within `estimate` (the SI-SDR projection): <e, r> / <r, r>. */
export function projectionScale(estimate: Float32Array, reference: Float32Array): number {
  const n = Math.min(estimate.length, reference.length);
  let dot = 0;
  let ref2 = 0;
  for (let i = 0; i < n; i++) {
    dot += estimate[i]! * reference[i]!;
    ref2 += reference[i]! * reference[i]!;
  }
  return ref2 > 0 ? dot / ref2 : 0;
}

/**
 * Scale-invariant signal-to-distortion ratio (Le Roux, Wisdom, Erdogan & Hershey, "SDR - half-baked or well done?",
 * ICASSP 2019): 10 log10(|a r|^2 / |e - a r|^2) with a the optimal scale, dB.
 */
export function siSdr(estimate: Float32Array, reference: Float32Array): number {
  const n = Math.min(estimate.length, reference.length);
  const a = projectionScale(estimate, reference);
  let target = 0;
  let noise = 0;
  for (let i = 0; i < n; i++) {
    const t = a * reference[i]!;
    target += t * t;
    noise += (estimate[i]! - t) ** 2;
  }
  return 10 * Math.log10(target / noise);
}

/**
 * Power of the sinusoids at `frequencies` in x (least-squares fit of a cosine and a sine per frequency over the
 * whole signal; the frequencies are far enough apart that the fits are independent), as mean square.
 */
export function sinusoidPower(x: Float32Array, sampleRate: number, frequencies: number[]): number {
  let power = 0;
  for (const f of frequencies) {
    let cc = 0;
    let ss = 0;
    const w = (2 * Math.PI * f) / sampleRate;
    for (let i = 0; i < x.length; i++) {
      cc += x[i]! * Math.cos(w * i);
      ss += x[i]! * Math.sin(w * i);
    }
    const a = (2 * cc) / x.length;
    const b = (2 * ss) / x.length;
    power += (a * a + b * b) / 2;
  }
  return power;
}

/**
 * CPU seconds used so far by this process and its finished children (ffmpeg), from /proc/self/stat (utime, stime,
 * cutime, cstime in clock ticks of 1/100 s on Linux), or null elsewhere. On a shared machine this is the fair
 * processing time: wall time also counts the time another process held the core.
 */
export function cpuSeconds(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After the command name, fields start at index 3 (state); utime is field 14, i.e. index 11 here.
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
