/** The mixing report (`report.json`): every decision per track, the bus, the mastering chain and the result. */
import type { AnalysisReport } from '../analysis/analyze';
import type { ChainResult } from '../master/master';
import type { PreviewChoice } from '../master/preview';
import type {
  InstrumentGroup,
  MusicalStyle,
  PanPreference,
  PresenceSetting,
  ReverbPreference,
  StageTimings,
} from '../types';
import type { CompressorReport } from './compressor';
import type { ReverbParams } from './reverb';

/**
 * What an EQ move is for, as a code the client translates: `rumble` (the high-pass), the group's usual moves
 * (`presence`, `air`, `behind-lead`, `definition`, `boxiness`, `click`, `body`, `vocal-room`, `mud`, `harshness`,
 * `boominess`), the build-ups measured on the track (`mud`, `harshness`) and `masking` (room made for `maskedBy`).
 */
export type EqPurpose =
  | 'rumble'
  | 'presence'
  | 'air'
  | 'behind-lead'
  | 'definition'
  | 'boxiness'
  | 'click'
  | 'body'
  | 'vocal-room'
  | 'mud'
  | 'harshness'
  | 'boominess'
  | 'masking';

export interface EqDecision {
  type: 'highpass' | 'peaking' | 'lowShelf' | 'highShelf';
  freqHz: number;
  gainDb: number;
  q: number;
  purpose: EqPurpose;
  /** `group`: the group's usual move; `measured`: a build-up measured on this track; `masking`: room for another. */
  basis: 'group' | 'measured' | 'masking';
  /** For `masking`: the track the room is made for. */
  maskedBy?: string;
  /** The group's usual move this one took the place of (a measured move wins over a default one close to it). */
  replaces?: { purpose: EqPurpose; freqHz: number; gainDb: number };
  /** The move in words, e.g. "Cut 3 dB around 3.1 kHz to tame harshness". */
  reason: string;
}

export interface TrackReport {
  name: string;
  /** `tracks/<file>`. */
  file: string;
  settings: {
    instrumentGroup: InstrumentGroup;
    groupSource: 'given' | 'guessed';
    presenceSetting: PresenceSetting;
    panPreference: PanPreference;
    reverbPreference: ReverbPreference;
  };
  input: {
    sampleRate: number;
    channels: number;
    durationSec: number;
    integratedLufs: number;
    samplePeakDbfs: number;
    resampled: boolean;
    paddedSec: number;
  };
  decisions: {
    eq: EqDecision[];
    compression: CompressorReport | null;
    /** Loudness aimed at before the bus, LUFS, and why. */
    targetLufs: number;
    targetReason: string;
    gainDb: number;
    pan: { position: number; width: number; reason: string; balanceCorrectionDb?: number };
    reverbSendDb: number | null;
  };
  /** The track as heard in the mix (`tracks/<file>`): loudness and left/right balance. */
  /**
   * The track as written: its true peak (oversampled meter) is held under the mix's ceiling by the mix's limiter
   * settings (`limiterMaxReductionDb`), then trimmed if the meter still reads above it (`trimDb`).
   */
  inMix: {
    integratedLufs: number;
    balanceDb: number;
    truePeakDbtp: number;
    limiterMaxReductionDb: number;
    trimDb: number;
    encoding: 'pcm24' | 'float32';
  };
  muted: boolean;
}

export interface MixReport {
  engine: string;
  settings: { style: MusicalStyle; sampleRate: number; targetLufs: number; ceilingDbtp: number };
  tracks: TrackReport[];
  reverb: ReverbParams & { returns: number };
  bus: { glue: CompressorReport; sumLufs: number; sumPeakDbfs: number };
  master: {
    tonal: ChainResult['tonal'];
    dynamics: ChainResult['dynamics'];
    stereo: ChainResult['stereo'];
    limiter: { inputGainDb: number; maxReductionDb: number; correctionDb: number };
    outputTrimDb: number;
  };
  /**
   * The gain that takes the processed tracks to the level they have in the mix (their sum matched to the mix's
   * loudness), dB, and the loudness of their sum after it.
   */
  tracksToMix: { gainDb: number; sumOfTracksLufs: number };
  before: AnalysisReport;
  after: AnalysisReport;
  preview: PreviewChoice;
  output: { file: string; sampleRate: number; bitDepth: number; integratedLufs: number; truePeakDbtp: number };
  timings: Record<string, number>;
}

export interface MixOutputs {
  /** `mix.wav` (24-bit, at the requested rate). */
  mix: string;
  /** `tracks/<name>.wav` by the track's file name (`<name>` as written, see report.tracks[].file). */
  tracks: Record<string, string>;
  /** `preview.mp3` (30 s). */
  preview: string;
  /** `report.json`. */
  report: string;
}

export interface MixResult {
  kind: 'mix';
  outputs: MixOutputs;
  report: MixReport;
  /** Duration of the mix in seconds (the longest track). */
  durationSec: number;
  timings: StageTimings;
}
