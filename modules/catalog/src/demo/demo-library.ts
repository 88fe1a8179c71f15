import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  type JobRequest,
  type JobResult,
  runJob,
  synthesizeDemoSong,
  synthesizeDemoVoice,
  writeWav,
} from '@kora/audio-engine';
import {
  ORIGINAL_WAV,
  type ProvisionDemoTrack,
  stemFile,
  stemPreviewFile,
  type TrackService,
} from '@kora/audio/contracts';
import { BlobStore, type Document, ReadStore, scratchPrefix, sleep } from '@kora/kernel';
import { JOB_OPTIONS, type JobOptions } from '@kora/kernel/nest';
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { DemoCache, type StoredBlob } from './demo-cache';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bump to regenerate the demo material (new synthesis or a better engine). */
export const DEMO_VERSION = 'v2';
const LIBRARY = '_demo_library';
const STALE_LOCK_MS = 10 * 60 * 1000;

/** One service's demo: the material a demo track points at (what `ProvisionDemoTrack` carries). */
export type DemoEntry = ProvisionDemoTrack['material'] & Pick<ProvisionDemoTrack, 'files' | 'stems' | 'options'>;
type Demos = Partial<Record<TrackService, DemoEntry>>;

/** The folder shared by installations on one machine where the demo material is kept once made (`DEMO_CACHE_DIR`). */
export const DEMO_CACHE_DIR = 'KORA_DEMO_CACHE_DIR';

interface LibraryDoc extends Document {
  status: 'generating' | 'ready';
  since: number;
  demos: Demos;
}

/**
 * The demo material every new account gets, made once per installation by the product itself: a short song
 * synthesised in code, mastered and separated by the engine, and a synthesised voice recording with room noise and
 * hum, enhanced by the engine. Kept in the blob store under `demo/<version>/` and shared by every demo track.
 */
@Injectable()
export class DemoLibrary {
  private readonly logger = new Logger(DemoLibrary.name);
  private ready: Promise<Demos> | null = null;

  constructor(
    private readonly blobs: BlobStore,
    private readonly reads: ReadStore,
    @Inject('KORA_DEMO_SEED') private readonly seed: number,
    @Optional() @Inject(JOB_OPTIONS) private readonly jobs: JobOptions | null = null,
    @Optional() @Inject(DEMO_CACHE_DIR) cacheDir: string | null = null,
  ) {
    this.cache = cacheDir ? new DemoCache(cacheDir, `${DEMO_VERSION}-seed${seed}`) : null;
  }

  private readonly cache: DemoCache<Demos> | null;

  /** The demos, generating them first if this installation has none yet (one process generates; others wait). */
  demos(): Promise<Demos> {
    this.ready ??= this.load().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private async load(): Promise<Demos> {
    const library = this.reads.collection<LibraryDoc>(LIBRARY);
    for (;;) {
      const claimed = await this.reads.transaction(async (tx) => {
        const docs = tx.collection<LibraryDoc>(LIBRARY);
        const current = await docs.findById(DEMO_VERSION);
        if (current?.status === 'ready') return current;
        if (current?.status === 'generating' && Date.now() - current.since < STALE_LOCK_MS) return null;
        await docs.upsert({ _id: DEMO_VERSION, status: 'generating', since: Date.now(), demos: {} });
        return 'mine' as const;
      });
      if (claimed === 'mine') break;
      if (claimed) return claimed.demos;
      await sleep(1_000);
    }
    try {
      const demos = (await this.restored()) ?? (await this.generate());
      await library.upsert({ _id: DEMO_VERSION, status: 'ready', since: Date.now(), demos });
      return demos;
    } catch (error) {
      await library.deleteById(DEMO_VERSION);
      throw error;
    }
  }

  /** The material another installation made, from the shared cache when one is configured. */
  private async restored(): Promise<Demos | null> {
    const demos = await this.cache?.restore(this.blobs);
    if (demos) this.logger.log('demo material copied from the shared cache');
    return demos ?? null;
  }

  private async generate(): Promise<Demos> {
    const started = Date.now();
    const stored: StoredBlob[] = [];
    const dir = await mkdtemp(join(tmpdir(), scratchPrefix('demo')));
    const base = `demo/${DEMO_VERSION}`;
    try {
      const songPath = join(dir, 'song.wav');
      const song = synthesizeDemoSong({ seconds: 24, sampleRate: 44_100, seed: this.seed });
      await writeWav(songPath, song.mixture, { encoding: 'pcm16' });
      const voicePath = join(dir, 'voice.wav');
      const voice = synthesizeDemoVoice({ seconds: 18, sampleRate: 48_000, seed: this.seed });
      await writeWav(voicePath, voice, { encoding: 'pcm16' });
      const songInfo = { size: (await stat(songPath)).size, durationSec: song.mixture.channels[0]!.length / 44_100 };
      const voiceInfo = { size: (await stat(voicePath)).size, durationSec: voice.channels[0]!.length / 48_000 };
      const run = (name: string, request: (outDir: string) => JobRequest): Promise<JobResult> =>
        // Scheduled below the requests, as jobs are (it runs in the API process, at the first sign-up).
        runJob(request(join(dir, name)), { niceness: this.jobs?.niceness ?? 0 });
      const put = async (key: string, path: string, type: string): Promise<string> => {
        await this.blobs.putFile(`${base}/${key}`, path, type);
        stored.push({ key: `${base}/${key}`, contentType: type });
        return `${base}/${key}`;
      };
      const keep = async (key: string, path: string, type: string): Promise<string> => {
        const copy = `${path}.keep`;
        await copyFile(path, copy);
        return put(key, copy, type);
      };

      const songKey = await keep('song/original', songPath, 'audio/wav');
      const voiceKey = await keep('voice/original', voicePath, 'audio/wav');
      const songMeta = {
        isVideo: false,
        format: 'wav',
        contentType: 'audio/wav',
        fileSize: songInfo.size,
        durationSec: songInfo.durationSec,
        sampleRate: 44_100,
        channels: 2,
        originalKey: songKey,
      };

      const mastered = await run('master', (outDir) => ({
        kind: 'master',
        input: songPath,
        outDir,
        options: { style: 'POP' },
      }));
      const masterFiles: Record<string, string> = {};
      if (mastered.kind === 'master') {
        masterFiles.master = await put('mastering/master', mastered.outputs.master44, 'audio/wav');
        masterFiles.master48 = await put('mastering/master48', mastered.outputs.master48, 'audio/wav');
        masterFiles.preview = await put('mastering/preview', mastered.outputs.preview, 'audio/mpeg');
        masterFiles.report = await put('mastering/report', mastered.outputs.report, 'application/json');
      }

      const separated = await run('stems', (outDir) => ({
        kind: 'stems',
        input: songPath,
        outDir,
        options: { mode: 'full' },
      }));
      const stemFiles: Record<string, string> = {};
      let stems: string[] = [];
      if (separated.kind === 'stems') {
        stems = separated.stems.map((stem) => stem.name);
        for (const stem of separated.stems) {
          for (const [name, path, type] of [
            [stemFile(stem.name), stem.path, 'audio/wav'],
            [stemPreviewFile(stem.name), stem.preview, 'audio/mpeg'],
          ] as const) {
            stemFiles[name] = await put(`stems/${name}`, path, type);
          }
        }
        stemFiles[ORIGINAL_WAV] = await put(`stems/${ORIGINAL_WAV}`, separated.outputs.original, 'audio/wav');
        const preview = separated.outputs.previews.original;
        if (preview) stemFiles.preview = await put('stems/preview', preview, 'audio/mpeg');
        stemFiles.report = await put('stems/report', separated.outputs.report, 'application/json');
      }

      const enhanced = await run('enhance', (outDir) => ({
        kind: 'enhance',
        input: voicePath,
        outDir,
        options: { preset: 'voice' },
      }));
      const enhanceFiles: Record<string, string> = {};
      if (enhanced.kind === 'enhance') {
        enhanceFiles.master = await keep('enhancement/master', enhanced.outputs.enhanced, 'audio/wav');
        // Demo tracks are unlocked: the preview plays the whole enhanced recording.
        enhanceFiles.preview = await put('enhancement/preview', enhanced.outputs.enhanced, 'audio/wav');
        enhanceFiles.report = await put('enhancement/report', enhanced.outputs.report, 'application/json');
      }

      this.logger.log(`demo material made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const demos: Demos = {
        AI_MASTERING: {
          ...songMeta,
          filename: 'Kora demo – Afro-pop groove.wav',
          files: masterFiles,
          stems: null,
          options: { preset: null, mode: null },
        },
        STEM_SEPARATION: {
          ...songMeta,
          filename: 'Kora demo – Afro-pop groove.wav',
          files: stemFiles,
          stems,
          options: { preset: null, mode: 'full' },
        },
        AUDIO_ENHANCEMENT: {
          filename: 'Kora demo – voice memo.wav',
          isVideo: false,
          format: 'wav',
          contentType: 'audio/wav',
          fileSize: voiceInfo.size,
          durationSec: voiceInfo.durationSec,
          sampleRate: 48_000,
          channels: 1,
          originalKey: voiceKey,
          files: enhanceFiles,
          stems: null,
          options: { preset: 'voice', mode: null },
        },
      };
      // Shared for the next installation; failing to keep it loses nothing here.
      await this.cache?.save(this.blobs, demos, stored).catch((error: unknown) => {
        this.logger.warn(`demo material not kept in the shared cache: ${(error as Error).message}`);
      });
      return demos;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
