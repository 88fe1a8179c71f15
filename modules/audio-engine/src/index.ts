/**
 * @kora/audio-engine public API.
 *
 * Jobs: `runJob` (in a worker thread; what a server should call) and `runJobInline` (in the calling thread).
 * Upload validation: `probe` (what a file really is, by content) and `assertAcceptable`.
 * Stems and mixing: `runJob` with `kind: 'stems'` or `kind: 'mix'`; the spec's enumerations (STEM_MODES, STEM_TYPES,
 * INSTRUMENT_GROUPS, PRESENCE_SETTINGS, PAN_PREFERENCES, REVERB_PREFERENCES, MIX_SAMPLE_RATES) and its file-name guess
 * (`guessInstrumentGroup`) so a server validates settings with the same lists; `sortStems` (the spec's stem order).
 * Demo material made in code: `synthesizeDemoSong`, `synthesizeDemoVoice`.
 * Building blocks: decoding, analysis, resampling, the mastering chain's loudness normalisation, WAV writing.
 */
export * from './errors';
export * from './types';
export type * from './results';
export type { ResourceEvent, Tick } from './stage/context';
export { runJob, workerEntryPath, type WorkerRunOptions } from './job/run-worker';
export { runJobInline, validateRequest } from './job/run-inline';
export { resolveLoudnessTarget } from './stage/input';
export {
  probe,
  readHead,
  sniffHead,
  type HeadSniff,
  assertAcceptable,
  claimedFamily,
  ACCEPTED_CONTAINERS,
  type ProbeResult,
  type Container,
  type ContainerFamily,
} from './io/probe';
export { decodeAudio, type DecodeOptions } from './io/decode';
export { writeWav, type WavEncoding } from './io/wav';
export {
  toolPath,
  resolveTool,
  identifyTool,
  TOOL_ENV,
  type ToolName,
  type ToolSource,
  type ResolvedTool,
  type ToolIdentity,
} from './io/tools';
export type { Pcm } from './pcm';
export { analyzePcm, type AnalysisReport, type StereoImage } from './analysis/analyze';
export { measureLoudness, integratedLufs, type LoudnessResult } from './analysis/loudness';
export { THIRD_OCTAVE_NOMINAL, type Spectrum } from './analysis/spectrum';
export { truePeak } from './dsp/true-peak';
export { resamplePcm } from './io/resample';
export { normalizeLoudness } from './master/normalize';
export { MASTER_FILES } from './master/master';
export type { MasterReport } from './master/report';
export type { EnhanceReport } from './enhance/report';
export { STEM_FILES } from './stems/stems';
export { STEM_ORDER, MODE_STEMS, sortStems } from './stems/catalog';
export type { StemsReport, StemEntry } from './stems/report';
export { guessInstrumentGroup, resolveSettings, type ResolvedSettings } from './mix/settings';
export { MIX_FILES } from './mix/mix';
export type { MixReport, TrackReport } from './mix/report';
export {
  synthesizeDemoSong,
  synthesizeDemoVoice,
  type DemoSong,
  type DemoSongOptions,
  type DemoVoiceOptions,
} from './demo/synth';
