/* global window, AudioNode, AudioDestinationNode, AnalyserNode -- the init script runs in the browser */
// What a page's Web Audio actually sends to the speakers, for the browser suite: an init script puts an AnalyserNode
// in front of every AudioContext's destination (whatever the app connects to the destination is connected to the
// analyser, which passes it on), and `outputLevel` reads it: the RMS of the last FFT_SIZE samples in dBFS and the
// level at chosen frequencies. The app's own graph is left as it is; only its way out is observed.

/** About 0.74 s at 44.1 kHz: wait at least this long after a change before reading the output. */
export const FFT_SIZE = 32768;
/** What a silent output reads (no sample above zero). */
export const SILENCE_DB = -200;

function tapScript(fftSize) {
  const connect = AudioNode.prototype.connect;
  const taps = new WeakMap();
  window.__audioTaps = [];
  AudioNode.prototype.connect = function (target, ...rest) {
    if (!(target instanceof AudioDestinationNode)) return connect.call(this, target, ...rest);
    let tap = taps.get(target);
    if (!tap) {
      // No smoothing: each reading is the last window alone, not a blend with the reading before a change.
      tap = new AnalyserNode(target.context, { fftSize, smoothingTimeConstant: 0 });
      connect.call(tap, target);
      taps.set(target, tap);
      window.__audioTaps.push(tap);
    }
    connect.call(this, tap, ...rest);
    return target;
  };
}

/** Taps the output of every AudioContext the page creates from its next navigation on. */
export async function tapAudioOutput(page) {
  await page.addInitScript(tapScript, FFT_SIZE);
}

/**
 * The output of the page's newest running AudioContext: `{ rmsDb, peakDb: { [hz]: dB } }`, the RMS over the last
 * FFT_SIZE samples (dBFS, SILENCE_DB for digital silence) and, for each frequency asked, the highest FFT bin within
 * 3 bins of it (dB, Blackman window, as AnalyserNode gives it).
 */
export function outputLevel(page, frequencies = []) {
  return page.evaluate(
    ([hzs, silence]) => {
      const tap = window.__audioTaps?.filter((node) => node.context.state === 'running').at(-1);
      if (!tap) throw new Error('no running AudioContext connected to its destination');
      const samples = new Float32Array(tap.fftSize);
      tap.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      const rms = Math.sqrt(sum / samples.length);
      const bins = new Float32Array(tap.frequencyBinCount);
      tap.getFloatFrequencyData(bins);
      const binHz = tap.context.sampleRate / tap.fftSize;
      const peakDb = {};
      for (const hz of hzs) {
        const centre = Math.round(hz / binHz);
        let peak = -Infinity;
        for (let bin = centre - 3; bin <= centre + 3; bin += 1) peak = Math.max(peak, bins[bin] ?? -Infinity);
        peakDb[hz] = Number.isFinite(peak) ? peak : silence;
      }
      return { rmsDb: rms > 0 ? 20 * Math.log10(rms) : silence, peakDb };
    },
    [frequencies, SILENCE_DB],
  );
}
