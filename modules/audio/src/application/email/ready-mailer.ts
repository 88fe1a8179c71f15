import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { readyMailRecipient } from '@kora/identity/contracts';
import {
  BlobStore,
  CLOCK,
  type Clock,
  EventStore,
  Mailer,
  PersonalDataVault,
  type RecordedEvent,
  signLink,
  streamId,
} from '@kora/kernel';
import { CommandContexts, ProcessorRegistry } from '@kora/kernel/nest';
import { createHash } from 'node:crypto';
import type { TrackEvent, TrackFiles, TrackUploaded } from '../../contracts/events';
import { trackStream } from '../../contracts/streams';
import { TrackNotFoundError } from '../../domain/errors';
import { AUDIO_OPTIONS, type AudioOptions } from '../audio-options';
import { TrackCommands } from '../track-commands';
import { stripTags } from '../tracks/track-view';
import { readyMail } from './ready-mail';
import { offeredDownloads, previewFiles, type ResultShape } from './result-links';
import { LINK_DAYS } from './send-email';

/** The events that end a job with something to hear: the preview (or stems), and the unlocked final result. */
const READY = ['PreviewReady', 'StemsReady', 'MasterReady'] as const;

/** The id of the `TrackResultEmailed` that records the ready mail of one event: the same event never mails twice. */
export function readyMailId(eventId: string): string {
  const hex = createHash('sha256').update(`track-ready-mail\u0000${eventId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The track as it stood when the event was recorded, from its own stream. */
interface TrackAtEvent extends ResultShape {
  uploaded: TrackUploaded['data'];
  unlocked: boolean;
}

/**
 * "Your track is ready" by e-mail, when the account's e-mail notifications are on (`notificationSettings.
 * emailNotifications`, on from sign-up), in the account's language. A preview (`PreviewReady`, `StemsReady` of a
 * locked track) mails the free preview links and how to unlock; the final result (`MasterReady`) mails every
 * download the result screen offers. A track paid for before its result was ready gets only the final mail.
 * Once per event: after sending, it records `TrackResultEmailed` under an id derived from the event and skips an
 * event whose record exists (a crash between the two sends it again, the processors' at-least-once).
 */
@Injectable()
export class TrackReadyMailer implements OnModuleInit {
  constructor(
    private readonly registry: ProcessorRegistry,
    private readonly store: EventStore,
    private readonly queries: QueryBus,
    private readonly mailer: Mailer,
    private readonly vault: PersonalDataVault,
    private readonly blobs: BlobStore,
    private readonly tracks: TrackCommands,
    private readonly contexts: CommandContexts,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(AUDIO_OPTIONS) private readonly options: AudioOptions,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'track-ready-mails',
      handles: READY,
      handle: (event) => this.mail(event as RecordedEvent<TrackEvent>),
    });
  }

  private async mail(event: RecordedEvent<TrackEvent>): Promise<void> {
    const trackId = streamId(event.streamName);
    const history = await this.store.readStream<TrackEvent>(trackStream(trackId));
    const markId = readyMailId(event.id);
    if (history.some((recorded) => recorded.id === markId || recorded.type === 'TrackDeleted')) return;
    const track = trackAt(history, event.id);
    if (!track || track.uploaded.isDemo) return;
    // Paid for before the result existed: the MasterReady appended with it sends the final mail instead.
    if (event.type !== 'MasterReady' && track.unlocked) return;
    const userId = track.uploaded.ownerId;

    const recipient = await readyMailRecipient(this.queries, this.vault, userId);
    if (!recipient) return;
    const { to } = recipient;

    const filename = stripTags(track.uploaded.filename);
    const full = await offeredDownloads(this.blobs, { ...track, filename: track.uploaded.filename });
    const offered = event.type === 'MasterReady' ? full : previewFiles(track);
    const expires = new Date(this.clock.now().getTime() + LINK_DAYS * 24 * 60 * 60 * 1000);
    const links = offered.map((entry) => ({
      label: entry.label,
      url: `${this.options.publicUrl}/api/audio/download/${signLink(
        { t: trackId, u: userId, f: entry.file, e: Math.floor(expires.getTime() / 1000) },
        this.options.linkSecret,
      )}`,
    }));
    await this.mailer.send(
      readyMail({
        ...recipient,
        filename,
        service: track.service,
        unlocked: event.type === 'MasterReady',
        links,
        lockedDownloads: full.map((entry) => entry.label),
        trackUrl: `${this.options.publicUrl}/dashboard?track=${encodeURIComponent(trackId)}`,
        settingsUrl: `${this.options.publicUrl}/accountSettings?section=general`,
        expires,
      }),
    );
    try {
      await this.tracks.execute(
        trackId,
        {
          type: 'RecordEmail',
          recipientFingerprint: this.vault.fingerprint(to.toLowerCase()),
          expiresAt: expires.toISOString(),
        },
        { ...this.contexts.forSystem(userId, event.id), ids: { newId: () => markId } },
        { settle: false },
      );
    } catch (error) {
      // Deleted since: nothing is left to mail again.
      if (!(error instanceof TrackNotFoundError)) throw error;
    }
  }
}

/** Folds the stream up to and including `eventId`: what was uploaded, its files and stems, and the unlock. */
function trackAt(history: readonly RecordedEvent<TrackEvent>[], eventId: string): TrackAtEvent | null {
  let uploaded: TrackUploaded['data'] | null = null;
  let files: TrackFiles = {};
  let stems: string[] = [];
  let unlocked = false;
  for (const recorded of history) {
    const event = recorded as TrackEvent;
    if (event.type === 'TrackUploaded') uploaded = event.data;
    else if (event.type === 'PreviewReady') files = { ...files, ...event.data.files };
    else if (event.type === 'StemsReady') {
      files = { ...files, ...event.data.files };
      stems = event.data.stems;
    } else if (event.type === 'TrackUnlocked') unlocked = true;
    if (recorded.id === eventId) break;
  }
  if (!uploaded) return null;
  return { uploaded, service: uploaded.service, isVideo: uploaded.isVideo, stems, files, unlocked };
}
