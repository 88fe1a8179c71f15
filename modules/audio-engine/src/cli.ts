/**
 * Command line of the engine. Machine output (JSON) goes to stdout, progress and logs to stderr.
 *
 *   engine probe <file>
 *   engine analyze <file>
 *   engine master <file> <outdir> [--target -14|streaming|apple|podcast|club] [--intensity low|medium|high]
 *                 [--style POP|...] [--reference <file>] [--seed N]
 *   engine enhance <file> <outdir> --preset voice|podcast|music|audio|video [--target ...] [--seed N]
 *   engine stems <file> <outdir> --mode vocals|drums|guitars|full
 *   engine mix <outdir> [--style POP] [--rate 44100|48000] [--settings settings.json] [--target ...] [<file>...]
 *
 * settings.json (see mix/settings-file): the spec's batch `{ musicalStyle?, sampleRate?, tracks: [entry...] }`, a bare
 * array of entries, or an object keyed by file name; an entry is `{ fileName, instrumentGroup?, presenceSetting?,
 * panPreference?, reverbPreference? }`. Anything it cannot apply (an entry without a file name or naming no input,
 * an unknown key or value) is a usage error. Without <file> arguments, the entries' files are mixed (resolved against
 * the settings file's folder). --style and --rate win over the batch's musicalStyle and sampleRate (with a note).
 *
 * Common flags: --quiet (no progress), --worker (run the job in a worker thread, as the server does).
 * Relative paths are resolved against INIT_CWD (the directory `npm run` was started from) or the current directory.
 * Exit codes: 0 success, 1 engine error (JSON {"error": {...}} on stdout), 2 usage error, 130 interrupted.
 */
import { basename, resolve } from 'node:path';
import { EngineError, InvalidOptionsError, toEngineError } from './errors';
import { probe } from './io/probe';
import { runJobInline } from './job/run-inline';
import { runJob } from './job/run-worker';
import { reportJson } from './master/report';
import { matchEntries, readMixSettings } from './mix/settings-file';
import type { JobResult } from './results';
import type { JobProgress, JobRequest, MixSampleRate, TrackSettings } from './types';
import { UsageError } from './usage-error';

export { UsageError };

const USAGE = `usage:
  engine probe <file>
  engine analyze <file>
  engine master <file> <outdir> [--target -14|streaming|apple|podcast|club] [--intensity low|medium|high]
                [--style ROCK_INDIE|POP|ACOUSTIC|HIPHOP_GRIME|ELECTRONIC|REGGAE_DUB|ORCHESTRAL|METAL|OTHER]
                [--reference <file>] [--seed N]
  engine enhance <file> <outdir> --preset voice|podcast|music|audio|video [--target ...] [--seed N]
  engine stems <file> <outdir> --mode vocals|drums|guitars|full
  engine mix <outdir> [--style POP] [--rate 44100|48000] [--settings settings.json] [--target ...] [<file>...]
             (2 to 5 WAV files, given here or as the settings file's entries)
  settings.json: { "musicalStyle": "POP", "sampleRate": 44100, "tracks": [entry...] } or [entry...], where an entry
             is { "fileName", "instrumentGroup", "presenceSetting", "panPreference", "reverbPreference" }
flags: --quiet  --worker`;

interface Parsed {
  command: string;
  positional: string[];
  flags: Map<string, string | true>;
}

const BOOLEAN_FLAGS = new Set(['quiet', 'worker', 'help']);

export function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq > 0 ? eq : undefined);
      if (eq > 0) flags.set(name, a.slice(eq + 1));
      else if (BOOLEAN_FLAGS.has(name)) flags.set(name, true);
      else {
        const value = argv[i + 1];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, value);
        i++;
      }
    } else positional.push(a);
  }
  const [command = '', ...rest] = positional;
  return { command, positional: rest, flags };
}

function flag(p: Parsed, name: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

function numberOrPreset(v: string | undefined): number | string | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? n : v;
}

/**
 * Builds the job request of a parsed command line (paths resolved against `base`). `note` receives remarks for the
 * user (stderr), such as a flag overriding a value of the settings file.
 */
export function buildRequest(
  p: Parsed,
  base: string,
  note: (message: string) => void = (m) => process.stderr.write(`${m}\n`),
): JobRequest {
  const at = (i: number, what: string) => {
    const v = p.positional[i];
    if (!v) throw new UsageError(`missing ${what}`);
    return resolve(base, v);
  };
  const known = new Set([
    'quiet',
    'worker',
    'help',
    'target',
    'intensity',
    'style',
    'reference',
    'seed',
    'preset',
    'mode',
    'rate',
    'settings',
  ]);
  for (const name of p.flags.keys()) if (!known.has(name)) throw new UsageError(`unknown flag --${name}`);
  const seed = flag(p, 'seed') === undefined ? undefined : Number(flag(p, 'seed'));
  switch (p.command) {
    case 'analyze':
      return { kind: 'analyze', input: at(0, '<file>') };
    case 'master': {
      const reference = flag(p, 'reference');
      return {
        kind: 'master',
        input: at(0, '<file>'),
        outDir: at(1, '<outdir>'),
        options: {
          target: numberOrPreset(flag(p, 'target')) as never,
          intensity: flag(p, 'intensity') as never,
          style: flag(p, 'style')?.toUpperCase() as never,
          reference: reference ? resolve(base, reference) : undefined,
          seed,
        },
      };
    }
    case 'enhance': {
      const preset = flag(p, 'preset');
      if (!preset) throw new UsageError('enhance needs --preset voice|podcast|music|audio|video');
      return {
        kind: 'enhance',
        input: at(0, '<file>'),
        outDir: at(1, '<outdir>'),
        options: { preset: preset as never, target: numberOrPreset(flag(p, 'target')) as never, seed },
      };
    }
    case 'stems': {
      const mode = flag(p, 'mode');
      if (!mode) throw new UsageError('stems needs --mode vocals|drums|guitars|full');
      return { kind: 'stems', input: at(0, '<file>'), outDir: at(1, '<outdir>'), options: { mode: mode as never } };
    }
    case 'mix': {
      const outDir = at(0, '<outdir>');
      const settingsFile = flag(p, 'settings');
      const file = settingsFile ? readMixSettings(resolve(base, settingsFile)) : undefined;
      const given = p.positional.slice(1).map((f) => resolve(base, f));
      const settings = file ? matchEntries(file, given) : new Map<string, TrackSettings>();
      const files = given.length > 0 ? given : (file?.entries.map((e) => e.path) ?? []);
      if (files.length === 0) {
        throw new UsageError(
          file
            ? `mix needs 2 to 5 WAV files: ${settingsFile} lists none and none follow <outdir>`
            : 'mix needs 2 to 5 WAV files after <outdir> (or a --settings file whose entries name them)',
        );
      }
      const styleFlag = flag(p, 'style')?.toUpperCase();
      const rateFlag = flag(p, 'rate');
      if (file?.musicalStyle !== undefined && styleFlag !== undefined && styleFlag !== file.musicalStyle) {
        note(`note: --style ${styleFlag} overrides musicalStyle ${file.musicalStyle} of ${settingsFile}`);
      }
      if (file?.sampleRate !== undefined && rateFlag !== undefined && Number(rateFlag) !== file.sampleRate) {
        note(`note: --rate ${rateFlag} overrides sampleRate ${file.sampleRate} of ${settingsFile}`);
      }
      return {
        kind: 'mix',
        outDir,
        inputs: files.map((path) => ({ path, name: basename(path), settings: settings.get(path) })),
        options: {
          style: (styleFlag ?? file?.musicalStyle ?? 'POP') as never,
          sampleRate: (rateFlag !== undefined ? Number(rateFlag) : (file?.sampleRate ?? 44100)) as MixSampleRate,
          target: numberOrPreset(flag(p, 'target')) as never,
        },
      };
    }
    default:
      throw new UsageError(p.command ? `unknown command "${p.command}"` : 'missing command');
  }
}

function summary(result: JobResult): unknown {
  switch (result.kind) {
    case 'analyze':
      return { probe: result.probe, analysis: result.report };
    case 'stems':
      return {
        mode: result.mode,
        stems: result.stems,
        outputs: result.outputs,
        durationSec: result.durationSec,
        mixtureConsistencyDb: result.report.mixtureConsistencyDb,
        timings: result.timings,
      };
    case 'mix':
      return {
        outputs: result.outputs,
        durationSec: result.durationSec,
        timings: result.timings,
        report: result.report,
      };
    case 'master':
    case 'enhance':
      return {
        outputs: result.outputs,
        durationSec: result.durationSec,
        timings: result.timings,
        report: result.report,
      };
  }
}

export async function main(argv: string[]): Promise<number> {
  const base = process.env.INIT_CWD ?? process.cwd();
  let parsed: Parsed;
  try {
    parsed = parseArgs(argv);
    if (parsed.flags.has('help') || parsed.command === 'help') {
      process.stderr.write(`${USAGE}\n`);
      return 0;
    }
    if (parsed.command === 'probe') {
      const file = parsed.positional[0];
      if (!file) throw new UsageError('missing <file>');
      process.stdout.write(`${reportJson(await probe(resolve(base, file)))}\n`);
      return 0;
    }
    const request = buildRequest(parsed, base);
    const controller = new AbortController();
    const onSignal = () => {
      process.stderr.write('\ninterrupted: cancelling...\n');
      controller.abort();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const quiet = parsed.flags.has('quiet');
    let last = '';
    const onProgress = (e: JobProgress) => {
      if (quiet) return;
      const line = `${(e.progress * 100).toFixed(0).padStart(3)}% ${e.stage}`;
      if (line !== last) process.stderr.write(`\r${line.padEnd(30)}`);
      last = line;
    };
    const run = parsed.flags.has('worker') ? runJob : runJobInline;
    const result = await run(request, { signal: controller.signal, onProgress });
    if (!quiet) process.stderr.write('\n');
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.stdout.write(`${reportJson(summary(result))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    const e: EngineError = error instanceof InvalidOptionsError ? error : toEngineError(error);
    process.stderr.write(`\nerror ${e.code}: ${e.message}\n`);
    process.stdout.write(`${JSON.stringify({ error: e.toJSON() })}\n`);
    return e.code === 'ENGINE.CANCELLED' ? 130 : 1;
  }
}

if (typeof require !== 'undefined' && require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
