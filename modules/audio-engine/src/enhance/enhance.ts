/**
 * Enhancement presets.
 *
 *   voice / podcast: decode at 48 kHz -> hum detection and notches -> high-pass (80 / 70 Hz, 24 dB/oct) ->
 *     RNNoise -> leveler and de-esser (each only when the input needs it) -> (podcast) compressor 2:1 -> -16 LUFS
 *     under -1 dBTP (true-peak clipper when the peaks need at most 6 dB, else the look-ahead limiter).
 *   music: hum notches if hum is found -> 20 Hz high-pass -> gentle spectral denoise that spares transients ->
 *     -14 LUFS under -1 dBTP.
 *   audio: speech or music is decided from the content (classify.ts), then the voice or the music chain runs.
 *   video: as audio, on the video's audio track; the result is muxed back into the original container with the
 *     video stream copied untouched.
 *
 * enhanced.wav is 24-bit PCM (TPDF dither) at the processing rate (48 kHz for speech, the source's 44.1/48 kHz for
 * music); for video the output is enhanced.<original extension>.
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type AnalysisReport, analyzePcm } from '../analysis/analyze';
import { BUTTERWORTH_Q, filtfiltInPlace, highpass } from '../dsp/biquad';
import { muxVideo } from '../io/encode';
import { OutputSet } from '../io/outputs';
import { writeWav } from '../io/wav';
import type { StageContext, Tick } from '../stage/context';
import { inputFacts, loadInput, processingRate, resolveLoudnessTarget } from '../stage/input';
import { ENGINE_VERSION, LIMITER_CEILING_DB } from '../master/master';
import { normalizeLoudness } from '../master/normalize';
import { reportJson } from '../master/report';
import { type Pcm, applyGain, frameCount } from '../pcm';
import { type EnhanceJob, TRUE_PEAK_CEILING_DBTP } from '../types';
import { type ContentClass, classifyContent } from './classify';
import { spectralDenoise } from './denoise';
import { detectHum, humNotches } from './hum';
import { speechLoudness } from './peaks';
import type { EnhanceReport, EnhanceResult } from './report';
import { RNNOISE_RATE, rnnoiseChannel } from './rnnoise';
import { compress, deEss, level } from './speech';

type Chain = 'voice' | 'podcast' | 'music';

const VIDEO_EXTENSIONS: Partial<Record<string, string>> = {
  mp4: '.mp4',
  mov: '.mov',
  m4v: '.m4v',
  'mpeg-ps': '.mpg',
  'mpeg-ts': '.ts',
};

const SPEECH_TARGET_LUFS = -16;
const MUSIC_TARGET_LUFS = -14;

/** All fixed filtering in enhancement is zero-phase (see filtfiltInPlace): the result stays aligned with the source. */
const runFilters = filtfiltInPlace;

/** True when the two channels carry the same signal (within -40 dB), so one RNNoise pass serves both. */
function isDualMono(pcm: Pcm): boolean {
  if (pcm.channels.length !== 2) return false;
  const [l, r] = pcm.channels as [Float32Array, Float32Array];
  let diff = 0;
  let sum = 0;
  for (let i = 0; i < l.length; i++) {
    const d = l[i]! - r[i]!;
    diff += d * d;
    sum += l[i]! * l[i]! + r[i]! * r[i]!;
  }
  return sum === 0 || diff / sum < 1e-4;
}

const speechHighpassHz = (chain: Chain) => (chain === 'podcast' ? 70 : 80);

/**
 * Each stage's share of the job, measured on a 3-minute stereo chord (`engine enhance`, WAV and MP3, 2026-12-03):
 * music 5.9-6.2 s (denoise 51-55 %, loudness 17 %, analyze 9-11 %, decode 2 % for a WAV, 12 % for an MP3), voice
 * 9.4-10.2 s (denoise 67-69 %, loudness 7 %, decode 6-8 %, analyze 5 %, dynamics 5 %). The plan before gave the
 * denoiser 22-25 of 60-65, so a voice job's bar ran a tenth ahead before the denoiser began. A stage weighted under
 * its time makes the bar lag (the server's time-based share covers that), over it run ahead: the decode takes the
 * smaller of its costs, and where the chain is chosen after the analysis (`audio`, `video`) the speech weights.
 */
function enhancePlan(fixedChain: Chain | null, isVideo: boolean) {
  const music = fixedChain === 'music';
  return {
    decode: music ? 2 : 5,
    analyze: music ? 10 : 5,
    hum: 1,
    denoise: music ? 53 : 68,
    dynamics: music ? 0 : 5,
    loudness: music ? 17 : 7,
    after: music ? 7 : 4,
    write: isVideo ? 10 : music ? 5 : 3,
  };
}

/** Hum: detected on the input, then notched out (zero-phase). */
async function removeHum(pcm: Pcm, tick: Tick) {
  const fs = pcm.sampleRate;
  const detection = await detectHum(pcm.channels, fs, (f) => tick(f * 0.5));
  const sections = humNotches(detection, fs);
  await runFilters(pcm, sections, (f) => tick(0.5 + f * 0.5));
  return { ...detection, notches: sections.length };
}

/** RNNoise on each channel (on one when the input is dual mono); the voice probability is the channels' maximum. */
async function rnnoiseAll(pcm: Pcm, dualMono: boolean, tick: Tick) {
  const sources = dualMono ? [pcm.channels[0]!] : pcm.channels;
  const denoised: Float32Array[] = [];
  let vad: Float32Array = new Float32Array(0);
  for (let c = 0; c < sources.length; c++) {
    const r = await rnnoiseChannel(sources[c]!, (f) => tick((c + f) / sources.length));
    denoised.push(r.output);
    if (c === 0) vad = r.vad;
    else for (let i = 0; i < vad.length; i++) vad[i] = Math.max(vad[i]!, r.vad[i] ?? 0);
  }
  return { vad, denoised };
}

/** For the audio and video presets: speech or music, from the (hum-cleaned) input before any speech filtering. */
async function classify(pcm: Pcm, dualMono: boolean, tick: Tick): Promise<ContentClass> {
  const probe = await rnnoiseAll(pcm, dualMono, tick);
  const mono = new Float32Array(frameCount(pcm));
  for (const ch of pcm.channels) {
    for (let i = 0; i < mono.length; i++) mono[i] = mono[i]! + ch[i]! / pcm.channels.length;
  }
  return classifyContent(probe.vad, mono, pcm.sampleRate);
}

/** Music: a 20 Hz high-pass, then the gentle spectral denoiser that spares transients. */
async function denoiseMusic(pcm: Pcm, tick: Tick) {
  await runFilters(pcm, [highpass(20, pcm.sampleRate, BUTTERWORTH_Q)]);
  return { decision: await spectralDenoise(pcm, tick), vad: null };
}

/**
 * Speech: one 2nd-order Butterworth high-pass section run forward and backward (24 dB/octave, zero phase), RNNoise,
 * then a fine-resolution Wiener filter whose a-priori SNR is guided by RNNoise's estimate and whose noise profile
 * comes from the frames RNNoise marks as voice-free.
 */
async function denoiseSpeech(pcm: Pcm, chain: Chain, dualMono: boolean, tick: Tick) {
  const fs = pcm.sampleRate;
  await runFilters(pcm, [highpass(speechHighpassHz(chain), fs, BUTTERWORTH_Q)]);
  const rn = await rnnoiseAll(pcm, dualMono, (f) => tick(f * 0.5));
  const guide = dualMono ? [rn.denoised[0]!] : rn.denoised;
  const vad = rn.vad;
  const frameOfSample = RNNOISE_RATE / (fs * 480);
  const isNoise = (start: number, length: number) => {
    const f0 = Math.max(0, Math.floor(start * frameOfSample));
    const f1 = Math.min(vad.length - 1, Math.floor((start + length) * frameOfSample));
    for (let f = f0; f <= f1; f++) if (vad[f]! > 0.2) return false;
    return true;
  };
  const source = dualMono ? { sampleRate: fs, channels: [pcm.channels[0]!] } : pcm;
  const wiener = await spectralDenoise(source, (f) => tick(0.5 + f * 0.5), {
    maxReductionDb: 25,
    alpha: 0.98,
    spareTransients: false,
    isNoise,
    guide,
    overlap: 0.5,
  });
  if (dualMono) pcm.channels[1]!.set(pcm.channels[0]!);
  let vadSum = 0;
  for (const v of vad) vadSum += v;
  return {
    decision: {
      method: 'rnnoise+wiener' as const,
      frames: vad.length,
      meanVoiceProbability: Math.round((vadSum / Math.max(1, vad.length)) * 1000) / 1000,
      processedAsMono: dualMono,
      wiener,
    },
    vad,
  };
}

/** Denoise, after deciding the chain from the content when the preset does not fix it (audio, video). */
async function denoise(pcm: Pcm, fixedChain: Chain | null, tick: Tick) {
  const dualMono = isDualMono(pcm);
  const classification = fixedChain ? null : await classify(pcm, dualMono, (f) => tick(f * 0.3));
  const chain: Chain = fixedChain ?? (classification?.content === 'speech' ? 'voice' : 'music');
  const share = fixedChain ? 0 : 0.3;
  const rest = (f: number) => tick(share + (1 - share) * f);
  const noise = chain === 'music' ? await denoiseMusic(pcm, rest) : await denoiseSpeech(pcm, chain, dualMono, rest);
  return { chain, classification, ...noise };
}

/** Speech dynamics: leveler, de-esser and (podcast) compressor; nothing for music. */
async function speechDynamics(pcm: Pcm, chain: Chain, vad: Float32Array | null, tick: Tick) {
  if (chain === 'music') return { deEsser: null, leveler: null, compressor: null };
  // Leveler first: the de-esser compares sibilants with the speaker's typical level, which means something only
  // once a quiet and a loud speaker have been brought together (otherwise the loud one's "s" would all count).
  const leveler = await level(pcm, vad, chain === 'podcast' ? 12 : 8, (f) => tick(f * 0.3));
  const deEsser = await deEss(pcm, (f) => tick(0.3 + f * 0.4));
  // Podcasts (listened to on phones, in cars) also get a gentle compressor; voice keeps its natural dynamics.
  const compressor = chain === 'podcast' ? await compress(pcm, 2, (f) => tick(0.7 + f * 0.3)) : null;
  return { deEsser, leveler, compressor };
}

/**
 * Loudness under the ceiling. Speech: clip the few true peaks above the ceiling when the loudest needs at most 6 dB
 * (peaks.ts: the smallest change to the waveform, zero-phase band limit); measured from the input, otherwise the
 * limiter.
 */
async function loudness(pcm: Pcm, chain: Chain, targetLufs: number, tick: Tick) {
  let neededReductionDb: number | undefined;
  if (chain !== 'music') {
    const clipped = await speechLoudness(pcm, targetLufs, LIMITER_CEILING_DB, (f) => tick(f));
    if (clipped.method === 'true-peak clipper') {
      const { maxReductionDb, meanReductionDb, limitedFraction } = clipped.stats;
      return {
        out: pcm,
        loudness: {
          method: clipped.method,
          inputGainDb: clipped.inputGainDb,
          correctionDb: clipped.correctionDb,
          neededReductionDb: clipped.neededReductionDb,
          maxReductionDb,
          meanReductionDb,
          limitedFraction,
        },
      };
    }
    neededReductionDb = clipped.neededReductionDb;
  }
  const limited = await normalizeLoudness(
    pcm,
    targetLufs,
    // Speech peaks are short: a quick limiter (1 ms look-ahead, 2 ms hold, 20 ms release, broadcast speech
    // settings) touches less of each syllable than the music settings (measured: +0.3 dB SI-SDR on the
    // evaluation's speech against 3/6/100 ms).
    chain === 'music'
      ? { ceilingDb: LIMITER_CEILING_DB, lookahead: 0.003, hold: 0.006, release: 0.1 }
      : { ceilingDb: LIMITER_CEILING_DB, lookahead: 0.001, hold: 0.002, release: 0.02 },
    tick,
  );
  return {
    out: limited.out,
    loudness: {
      method: 'limiter' as const,
      inputGainDb: limited.search.gainDb,
      correctionDb: limited.correctionDb,
      ...(neededReductionDb === undefined ? {} : { neededReductionDb }),
      ...limited.search.stats,
    },
  };
}

/** The result's analysis; a true peak too close to the ceiling is trimmed and the result analysed again. */
async function trimmedAfter(out: Pcm, after: AnalysisReport): Promise<AnalysisReport> {
  if (!(after.truePeakDbtp > TRUE_PEAK_CEILING_DBTP - 0.1)) return after;
  applyGain(out, Math.pow(10, (TRUE_PEAK_CEILING_DBTP - 0.15 - after.truePeakDbtp) / 20));
  return analyzePcm(out);
}

export async function enhance(job: EnhanceJob, ctx: StageContext): Promise<EnhanceResult> {
  const preset = job.options.preset;
  const explicitTarget = resolveLoudnessTarget(job.options.target);
  const seed = Number.isInteger(job.options.seed) ? (job.options.seed as number) : 1;
  const isVideo = preset === 'video';
  const fixedChain: Chain | null = preset === 'voice' || preset === 'podcast' || preset === 'music' ? preset : null;
  ctx.plan(enhancePlan(fixedChain, isVideo));
  const outputs = new OutputSet(job.outDir, ctx);
  try {
    await outputs.init();
    const input = await ctx.stage('decode', (tick) =>
      loadInput(job.input, {
        claimedType: job.claimedType,
        requireVideo: isVideo,
        maxChannels: 2,
        sampleRate: (info) => (fixedChain === 'music' ? processingRate(info.sampleRate) : RNNOISE_RATE),
        ctx,
        tick,
      }),
    );
    const pcm = input.pcm;
    const fs = pcm.sampleRate;
    const before = await ctx.stage('analyze', (tick) => analyzePcm(pcm, { tick }));
    const hum = await ctx.stage('hum', (tick) => removeHum(pcm, tick));
    const noise = await ctx.stage('denoise', (tick) => denoise(pcm, fixedChain, tick));
    const chain = noise.chain;
    const speechSteps = await ctx.stage('dynamics', (tick) => speechDynamics(pcm, chain, noise.vad, tick));
    const targetLufs = explicitTarget ?? (chain === 'music' ? MUSIC_TARGET_LUFS : SPEECH_TARGET_LUFS);
    const normalized = await ctx.stage('loudness', (tick) => loudness(pcm, chain, targetLufs, tick));
    const out = normalized.out; // rendered in place: the same buffers as pcm
    const after = await trimmedAfter(out, await ctx.stage('after', (tick) => analyzePcm(out, { tick })));

    const ext = extname(job.input).toLowerCase() || VIDEO_EXTENSIONS[input.probe.container] || '.mp4';
    const outName = isVideo ? `enhanced${ext}` : 'enhanced.wav';
    const outPath = outputs.temp(outName);
    const reportPath = outputs.temp('report.json');
    await ctx.stage('write', async (tick) => {
      if (isVideo) await muxVideo(job.input, out, input.probe.container, outPath, ctx);
      else await writeWav(outPath, out, { encoding: 'pcm24', seed, tick });
    });

    const report: EnhanceReport = {
      engine: ENGINE_VERSION,
      input: inputFacts(input, { sampleRate: fs, channels: before.channels }),
      settings: {
        preset,
        chain,
        classification: noise.classification,
        targetLufs,
        ceilingDbtp: TRUE_PEAK_CEILING_DBTP,
      },
      before,
      after,
      steps: {
        highpassHz: chain === 'music' ? 20 : speechHighpassHz(chain),
        hum,
        noiseSuppression: noise.decision,
        ...speechSteps,
        loudness: normalized.loudness,
      },
      outputs: {
        enhanced: {
          file: outName,
          sampleRate: fs,
          bitDepth: isVideo ? null : 24,
          container: isVideo ? input.probe.container : 'wav',
          videoCopied: isVideo,
        },
      },
      timings: ctx.timings,
    };
    await writeFile(reportPath, reportJson(report));
    const done = await outputs.commit();
    return {
      kind: 'enhance',
      probe: input.probe,
      outputs: { enhanced: done[outName]!, report: done['report.json']! },
      report,
      durationSec: before.durationSec,
      timings: ctx.timings,
    };
  } catch (error) {
    await outputs.discard();
    throw error;
  }
}
