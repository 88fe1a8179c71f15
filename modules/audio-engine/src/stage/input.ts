/** Shared input handling for jobs: option parsing, probing, validation against the claim, decoding. */
import { basename } from 'node:path';
import { InvalidOptionsError } from '../errors';
import { decodeAudio } from '../io/decode';
import { type ProbeResult, assertAcceptable, probe } from '../io/probe';
import type { Pcm } from '../pcm';
import { LOUDNESS_PRESETS, type LoudnessTarget } from '../types';
import type { StageContext, Tick } from './context';

export const MIN_TARGET_LUFS = -30;
export const MAX_TARGET_LUFS = -5;

/** A loudness preset name or number -> LUFS; throws ENGINE.INVALID_OPTIONS when out of range or unknown. */
export function resolveLoudnessTarget(target: LoudnessTarget | string | undefined): number | undefined {
  if (target === undefined) return undefined;
  if (typeof target === 'string') {
    if (target in LOUDNESS_PRESETS) return LOUDNESS_PRESETS[target as keyof typeof LOUDNESS_PRESETS];
    const n = Number(target);
    if (target.trim() === '' || !Number.isFinite(n)) {
      throw new InvalidOptionsError(`unknown loudness target "${target}"`, {
        presets: Object.keys(LOUDNESS_PRESETS),
      });
    }
    return resolveLoudnessTarget(n);
  }
  if (!Number.isFinite(target) || target < MIN_TARGET_LUFS || target > MAX_TARGET_LUFS) {
    throw new InvalidOptionsError(`loudness target must be between ${MIN_TARGET_LUFS} and ${MAX_TARGET_LUFS} LUFS`, {
      target,
    });
  }
  return target;
}

export function assertOneOf<T extends string>(value: unknown, allowed: readonly T[], name: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new InvalidOptionsError(`${name} must be one of ${allowed.join(', ')}`, { [name]: value, allowed });
  }
  return value as T;
}

/** The processing rate for a source rate: 44.1 and 48 kHz are kept; other rates go to the nearer family. */
export function processingRate(sourceRate: number | null): number {
  if (sourceRate === 44100 || sourceRate === 48000) return sourceRate;
  if (sourceRate && 44100 % sourceRate === 0) return 44100;
  if (sourceRate && sourceRate % 44100 === 0) return 44100;
  return 48000;
}

export interface LoadedInput {
  pcm: Pcm;
  probe: ProbeResult;
  name: string;
}

/** What a report says of its input file. */
export interface InputFacts {
  file: string;
  container: string;
  codec: string | null;
  sampleRate: number;
  channels: number;
}

/** The input as the probe saw it (the decoded rate and channel count where the probe had none). */
export function inputFacts(input: LoadedInput, decoded: { sampleRate: number; channels: number }): InputFacts {
  return {
    file: input.name,
    container: input.probe.container,
    codec: input.probe.audioCodec,
    sampleRate: input.probe.sampleRate ?? decoded.sampleRate,
    channels: input.probe.channels ?? decoded.channels,
  };
}

export interface LoadOptions {
  claimedType?: string;
  requireVideo?: boolean;
  /** Target rate, 'native' to keep the file's, or a choice made from the probe; default processingRate(source). */
  sampleRate?: number | 'native' | ((probe: ProbeResult) => number);
  /** Upper bound on channels (more are downmixed by ffmpeg). */
  maxChannels?: number;
  ctx?: StageContext;
  tick?: Tick;
}

/** Probes, validates (format accepted, claim matches content, audio present) and decodes. */
export async function loadInput(file: string, options: LoadOptions = {}): Promise<LoadedInput> {
  const info = await probe(file, options.ctx);
  assertAcceptable(info, { claimedType: options.claimedType ?? file, requireVideo: options.requireVideo });
  const channels = Math.min(options.maxChannels ?? 8, info.channels ?? 2);
  const { pcm } = await decodeAudio(file, {
    probe: info,
    sampleRate:
      options.sampleRate === 'native'
        ? (info.sampleRate ?? 48000)
        : typeof options.sampleRate === 'function'
          ? options.sampleRate(info)
          : (options.sampleRate ?? processingRate(info.sampleRate)),
    channels,
    ctx: options.ctx,
    tick: options.tick,
  });
  return { pcm, probe: info, name: basename(file) };
}
