/** The stems report (`stems.json`). */
import type { ProbeResult } from '../io/probe';
import type { InputFacts } from '../stage/input';
import type { PreviewChoice } from '../master/preview';
import type { SeparatedStem, StemFile, StemMode, StageTimings } from '../types';
import type { ClassicalDecisions } from './classical';

/** A stem as `stems.json` lists it: the facts of the job's StemFile, with file names relative to the output. */
export interface StemEntry extends Omit<StemFile, 'path'> {
  file: string;
  encoding: 'pcm24' | 'float32';
}

export interface StemsReport {
  engine: string;
  mode: StemMode;
  input: InputFacts;
  sampleRate: number;
  channels: number;
  durationSec: number;
  /** The stems in the spec's order (`other` last). */
  order: SeparatedStem[];
  stems: StemEntry[];
  original: { file: string; preview: string };
  /** The 30 s window every preview is cut at (chosen on the mixture, as the mastering preview). */
  preview: PreviewChoice;
  /** Energy of the input over the energy of (input - sum of the stems), dB, on the floating-point stems. */
  mixtureConsistencyDb: number;
  separator: {
    /** classical, neural, or neural for the model's stem and classical for the rest. */
    kind: 'classical' | 'neural' | 'neural+classical';
    model: { file: string; primary: string; nFft: number; dimF: number; dimT: number; hop: number } | null;
    classical: ClassicalDecisions | null;
  };
  /** What a classical separator can and cannot do (shown with the result). */
  note: string;
  timings: Record<string, number>;
}

export const CLASSICAL_NOTE =
  'Separated by signal processing, without a trained model: drums by their transients, bass by its register and ' +
  'pitch, the lead vocal by its pitch and its place in the centre of the stereo image. Expect bleed between stems ' +
  '(reverb, backing vocals and centred instruments in the vocal stem, plucked attacks in the drum stem). The stems ' +
  'always add up to the original.';

export const NEURAL_NOTE =
  'Separated by the configured neural model for its stem; any other stem by signal processing. The stems always add up ' +
  'to the original.';

export interface StemsOutputs {
  /** `<stem>.wav` by stem name. */
  stems: Partial<Record<SeparatedStem, string>>;
  /** `original.wav`: the decoded input at its own sample rate. */
  original: string;
  /** `preview/<stem>.mp3` by stem name, plus `original`. */
  previews: Record<string, string>;
  /** `stems.json`. */
  report: string;
}

export interface StemsResult {
  kind: 'stems';
  probe: ProbeResult;
  mode: StemMode;
  /** The stems in the spec's stem order. */
  stems: StemFile[];
  outputs: StemsOutputs;
  report: StemsReport;
  durationSec: number;
  timings: StageTimings;
}
