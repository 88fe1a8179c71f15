import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { EngineError, probe, readHead } from '@kora/audio-engine';
import { BlobStore, FileRequiredError, IDS, type IdGenerator, KeyedLock } from '@kora/kernel';
import { type ClaimedUpload, CommandContexts, HEAD_BYTES, receiveMultipart, ResumableUploads } from '@kora/kernel/nest';
import type { IncomingMessage } from 'node:http';
import { CountTracksInProgress, GetTrack, type TrackDocument } from '../../contracts/queries';
import { AlreadyProcessingError, TooManyFilesError, TrackNotFoundError } from '../../domain/errors';
import { TrackCommands } from '../track-commands';
import type { Track, TrackOptions, UploadRequest } from '@kora/contracts';
import { trackView } from '../tracks/track-view';
import {
  checkContent,
  checkHead,
  checkReference,
  countedSize,
  sizeByContent,
  checkSize,
  CONTENT_TYPES,
  invalidReference,
  LARGEST_UPLOAD,
  SIZE_LIMITS,
  type UploadChoice,
  unreadable,
  uploadChoice,
} from './upload-rules';
import { TRACK_SERVICES, type TrackService } from '../../contracts/events';

const MAX_FILENAME = 255;

/** The resumable uploads' purposes this module takes (`purpose` in their metadata). */
export const TRACK_PURPOSE = 'track';
export const REFERENCE_PURPOSE = 'reference';

/** A job's options, each of the contract's `TrackOptions` (a new one is read here, or this fails the type check). */
const OPTION_FIELDS = Object.keys({
  service: true,
  preset: true,
  mode: true,
  intensity: true,
  target: true,
} satisfies Record<keyof TrackOptions, true>) as Array<keyof TrackOptions>;

/**
 * A JSON body's text fields (a reprocess request's options, a resumable upload's ids: the contract's `UploadRequest`)
 * as the upload form's fields: a field that is not text counts as invalid.
 */
function jsonFields<Name extends keyof UploadRequest>(
  body: unknown,
  names: readonly Name[],
): Partial<Record<Name, string>> {
  const given =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const fields: Partial<Record<Name, string>> = {};
  for (const name of names) {
    const value = given[name];
    if (value === undefined || value === null || value === '') continue;
    // A number or an object is no known value: the field's own refusal says so.
    fields[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return fields;
}

/**
 * The upload: the file is streamed into the blob store, then checked by content (ffprobe, never the name or the
 * declared type), then recorded as `TrackUploaded` and `ProcessingRequested`. Whatever refuses it, the stored file is
 * removed and nothing is recorded.
 */
@Injectable()
export class UploadService implements OnModuleInit {
  /** One upload at a time per user and service in this process, so two quick uploads cannot both pass the check. */
  private readonly locks = new KeyedLock();

  constructor(
    private readonly blobs: BlobStore,
    private readonly tracks: TrackCommands,
    private readonly queries: QueryBus,
    private readonly contexts: CommandContexts,
    private readonly resumable: ResumableUploads,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  /**
   * What resumable uploads this module takes: a file for a service (`service` and `preset` in the metadata, within
   * the service's sizes) and a reference track; both refused by their first bytes where those already tell.
   */
  onModuleInit(): void {
    this.resumable.registerPurpose(TRACK_PURPOSE, {
      largest: LARGEST_UPLOAD,
      limits: (metadata) => {
        const limits = SIZE_LIMITS[uploadChoice({ service: metadata.service ?? '' }).service];
        // A FLAC's limits are its WAV's, read from its first bytes: only the most a file may weigh applies here.
        return sizeByContent(metadata) ? { min: 0, max: limits.max } : limits;
      },
      checkHead: (head, length, metadata) =>
        checkHead({ service: metadata.service as TrackService, preset: metadata.preset ?? null }, head, length),
    });
    this.resumable.registerPurpose(REFERENCE_PURPOSE, {
      largest: SIZE_LIMITS.AI_MASTERING.max,
      limits: () => ({ min: 1, max: SIZE_LIMITS.AI_MASTERING.max }),
      checkHead: (head, length) => checkHead('reference', head, length),
    });
  }

  /**
   * A job from a file sent by the resumable protocol (`upload`, and for mastering an optional `reference`, both
   * upload ids), with the form's fields as JSON: the same rules as an upload in one request, the file moved from the
   * uploads' staging into the blob store. Each upload is used once; a refused one is removed.
   */
  async uploadSent(userId: string, body: unknown): Promise<Track & { service: TrackService }> {
    const ids = jsonFields(body, ['upload', 'reference']);
    if (!ids.upload) throw new FileRequiredError();
    const choice = uploadChoice(jsonFields(body, OPTION_FIELDS), ids.reference !== undefined);
    const trackId = this.ids.newId();
    const key = `tracks/${trackId}/original`;
    const referenceKey = `tracks/${trackId}/reference`;
    const claimed: ClaimedUpload[] = [];
    try {
      return await this.locks.run(`${userId}:${choice.service}`, async () => {
        await this.ensureNothingInProgress(userId, choice.service);
        const file = await this.resumable.claim(userId, ids.upload!, [TRACK_PURPOSE]);
        claimed.push(file);
        checkSize(choice.service, await countedSize(await readHead(file.path, HEAD_BYTES), file.length));
        const reference = ids.reference ? await this.resumable.claim(userId, ids.reference, [REFERENCE_PURPOSE]) : null;
        if (reference) claimed.push(reference);
        await this.blobs.putFile(key, file.path, 'application/octet-stream');
        if (reference) await this.blobs.putFile(referenceKey, reference.path, 'application/octet-stream');
        return await this.record(
          userId,
          trackId,
          key,
          choice,
          file.filename,
          file.length,
          reference ? referenceKey : null,
        );
      });
    } catch (error) {
      await this.blobs.deletePrefix(`tracks/${trackId}`).catch(() => undefined);
      throw error;
    } finally {
      await Promise.all(claimed.map((upload) => upload.discard()));
    }
  }

  async upload(userId: string, request: IncomingMessage): Promise<Track & { service: TrackService }> {
    const trackId = this.ids.newId();
    const key = `tracks/${trackId}/original`;
    const referenceKey = `tracks/${trackId}/reference`;
    const seen = new Set<string>();
    try {
      const { fields, files } = await receiveMultipart(request, {
        // The file, and for mastering an optional reference track to match.
        fileField: ['file', 'reference'],
        maxFiles: 2,
        maxBytes: (early) =>
          TRACK_SERVICES.includes(early.service as TrackService)
            ? SIZE_LIMITS[early.service as TrackService].max
            : LARGEST_UPLOAD,
        store: (stream, _index, _filename, _mimeType, field) => {
          if (seen.has(field)) {
            throw new TooManyFilesError();
          }
          seen.add(field);
          return this.blobs.put(field === 'reference' ? referenceKey : key, stream, 'application/octet-stream');
        },
      });
      const file = files.find((received) => received.field === 'file');
      const reference = files.find((received) => received.field === 'reference');
      if (!file) throw new FileRequiredError();
      const choice = uploadChoice(fields, reference !== undefined);
      checkSize(choice.service, file.size);
      return await this.locks.run(`${userId}:${choice.service}`, async () => {
        await this.ensureNothingInProgress(userId, choice.service);
        return this.record(userId, trackId, key, choice, file.filename, file.size, reference ? referenceKey : null);
      });
    } catch (error) {
      await this.blobs.deletePrefix(`tracks/${trackId}`).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A new job from a file the user uploaded before (the media library): the source track's original is copied to
   * the new track (so deleting either leaves the other whole), then recorded exactly as an upload is, with the same
   * rules: the service's size limits, the content check, one job at a time per service. Only the owner's own
   * uploads (not demos) can be picked; anything else is as absent as a deleted track.
   */
  async reprocess(userId: string, sourceId: string, body: unknown): Promise<Track & { service: TrackService }> {
    const choice = uploadChoice(jsonFields(body, OPTION_FIELDS));
    const source = await this.queries.execute<GetTrack, TrackDocument | null>(new GetTrack(userId, sourceId));
    const sourceKey = source?.files.original;
    if (!source || source.isDemo || !sourceKey) throw new TrackNotFoundError();
    const stored = await this.blobs.stat(sourceKey);
    if (!stored) throw new TrackNotFoundError();
    checkSize(choice.service, stored.size);
    const trackId = this.ids.newId();
    const key = `tracks/${trackId}/original`;
    try {
      return await this.locks.run(`${userId}:${choice.service}`, async () => {
        await this.ensureNothingInProgress(userId, choice.service);
        await this.blobs.put(key, await this.blobs.read(sourceKey), 'application/octet-stream');
        return this.record(userId, trackId, key, choice, source.filename, stored.size, null);
      });
    } catch (error) {
      await this.blobs.deletePrefix(`tracks/${trackId}`).catch(() => undefined);
      throw error;
    }
  }

  private async ensureNothingInProgress(userId: string, service: TrackService): Promise<void> {
    const inProgress = await this.queries.execute<CountTracksInProgress, number>(
      new CountTracksInProgress(userId, service),
    );
    if (inProgress > 0) throw new AlreadyProcessingError();
  }

  /**
   * Probes the stored file (and the reference) and records the upload. The engine is met only here, so its errors are
   * mapped to the upload's refusals here, once; the callers only remove the stored files of a refused upload.
   */
  private async record(
    userId: string,
    trackId: string,
    key: string,
    choice: UploadChoice,
    filename: string,
    fileSize: number,
    referenceKey: string | null,
  ): Promise<Track & { service: TrackService }> {
    if (referenceKey) {
      const reference = await this.blobs
        .withLocalFile(referenceKey, (path) => probe(path))
        .catch((error: unknown) => {
          throw error instanceof EngineError ? invalidReference() : error;
        });
      checkReference(reference);
    }
    const found = await this.blobs
      .withLocalFile(key, (path) => probe(path))
      .catch((error: unknown) => {
        throw unreadable(error, choice.preset === 'video');
      });
    const { isVideo } = checkContent(choice, found);
    const contentType = CONTENT_TYPES[found.container] ?? 'application/octet-stream';
    await this.tracks.execute(
      trackId,
      {
        type: 'UploadTrack',
        jobId: this.ids.newId(),
        options:
          choice.service === 'AI_MASTERING'
            ? { preset: null, mode: null, intensity: choice.intensity, target: choice.target, referenceKey }
            : { preset: choice.preset, mode: choice.mode },
        upload: {
          trackId,
          ownerId: userId,
          service: choice.service,
          filename: filename.slice(0, MAX_FILENAME),
          format: found.container,
          contentType,
          fileSize,
          durationSec: Math.round(found.durationSec * 1000) / 1000,
          sampleRate: found.sampleRate ?? 0,
          channels: found.channels ?? 0,
          isVideo,
          isDemo: false,
          originalKey: key,
        },
      },
      this.contexts.forUser(userId),
    );
    const doc = await this.queries.execute<GetTrack, TrackDocument | null>(new GetTrack(userId, trackId));
    return { ...trackView(doc!), service: choice.service };
  }
}
