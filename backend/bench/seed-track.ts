import { type EventStore, toAppend, uuidv7 } from '@kora/kernel';
import { type TrackUploaded, trackStream } from '@kora/audio/contracts';

/**
 * Appends a 3-minute mastering track whose locked preview is ready straight into the log, with the events the product
 * records for one (upload, processing request, preview), so a benchmark starts from accounts that have results
 * without running the engine. The projections build the read models from them. Returns the track's id.
 */
export async function seedMasteredTrack(events: EventStore, userId: string, filename: string): Promise<string> {
  const trackId = uuidv7();
  const jobId = uuidv7();
  const upload: TrackUploaded['data'] = {
    trackId,
    ownerId: userId,
    service: 'AI_MASTERING',
    filename,
    format: 'wav',
    contentType: 'audio/wav',
    fileSize: 5_000_000,
    durationSec: 180,
    sampleRate: 44_100,
    channels: 2,
    isVideo: false,
    isDemo: false,
    originalKey: `tracks/${trackId}/original`,
  };
  const context = {
    userId,
    correlationId: 'bench',
    causationId: 'bench',
    clock: { now: () => new Date() },
    ids: { newId: uuidv7 },
  };
  await events.append(
    trackStream(trackId),
    toAppend(
      [
        { type: 'TrackUploaded', data: upload },
        {
          type: 'ProcessingRequested',
          data: { jobId, service: 'AI_MASTERING', options: { preset: null, mode: null }, upload },
        },
        {
          type: 'PreviewReady',
          data: {
            jobId,
            service: 'AI_MASTERING',
            files: { preview: `tracks/${trackId}/preview` },
            processingSeconds: 5,
            durationSec: 180,
            before: null,
            after: null,
          },
        },
      ],
      context,
    ),
    'no_stream',
  );
  return trackId;
}
