import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { readyMailRecipient } from '@kora/identity/contracts';
import {
  CLOCK,
  type Clock,
  EventStore,
  Mailer,
  PersonalDataVault,
  readyMail,
  type RecordedEvent,
  signLink,
  streamId,
} from '@kora/kernel';
import { ProcessorRegistry } from '@kora/kernel/nest';
import type { MixEvent } from '../../contracts/events';
import { mixStream } from '../../contracts/streams';
import { MIXING_OPTIONS, type MixingOptions } from '../mixing-options';
import { MIX_LINK_DAYS, type MixLinkClaims, mixDownloads } from './mix-files';

/** The session as it stood when the event was recorded, from its own stream. */
interface MixAtEvent {
  ownerId: string;
  name: string;
  tracks: Array<{ trackId: string; filename: string }>;
  files: Record<string, string>;
  unlocked: boolean;
}

/**
 * "Your mix is ready" by e-mail, as the tracks' (`track-ready-mails`): when the account's e-mail notifications are
 * on, in the account's language. A finished mix (`MixReady`) mails the free preview and how to unlock; the unlock
 * (`MixUnlocked`, or a new mix of an unlocked session) mails the final mix and every processed track. At least once:
 * a crash between the mail and the processor's checkpoint sends that mail again.
 */
@Injectable()
export class MixReadyMailer implements OnModuleInit {
  constructor(
    private readonly registry: ProcessorRegistry,
    private readonly store: EventStore,
    private readonly queries: QueryBus,
    private readonly mailer: Mailer,
    private readonly vault: PersonalDataVault,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MIXING_OPTIONS) private readonly options: MixingOptions,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'mix-ready-mails',
      handles: ['MixReady', 'MixUnlocked'],
      handle: (event) => this.mail(event as RecordedEvent<MixEvent>),
    });
  }

  private async mail(event: RecordedEvent<MixEvent>): Promise<void> {
    const sessionId = streamId(event.streamName);
    const history = await this.store.readStream<MixEvent>(mixStream(sessionId));
    const mix = mixAt(history, event.id);
    // Unlocked before any mix was made: the mix's own MixReady sends the final mail.
    if (!mix || !mix.files.mix) return;
    const userId = mix.ownerId;
    const recipient = await readyMailRecipient(this.queries, this.vault, userId);
    if (!recipient) return;

    const expires = new Date(this.clock.now().getTime() + MIX_LINK_DAYS * 24 * 60 * 60 * 1000);
    const link = (file: string): string => {
      const claims: MixLinkClaims = { m: sessionId, u: userId, f: file, e: Math.floor(expires.getTime() / 1000) };
      return `${this.options.publicUrl}/api/mixing/download/${signLink(claims, this.options.linkSecret)}`;
    };
    const offered = mixDownloads(mix.files, mix.tracks, mix.unlocked);
    await this.mailer.send(
      readyMail({
        ...recipient,
        filename: mix.name.replace(/<[^>]*>?/g, ''),
        done: { en: 'The mix of “{name}” is done.', fr: 'Le mix de « {name} » est terminé.' },
        unlockWhat: { en: 'the mix', fr: 'le mix' },
        unlocked: mix.unlocked,
        links: offered.map((entry) => ({ label: entry.label, url: link(entry.file) })),
        lockedDownloads: mixDownloads(mix.files, mix.tracks, true).map((entry) => entry.label),
        trackUrl: `${this.options.publicUrl}/dashboard?mix=${encodeURIComponent(sessionId)}`,
        settingsUrl: `${this.options.publicUrl}/accountSettings?section=general`,
        expires,
        template: 'mix-ready',
      }),
    );
  }
}

/** Folds the stream up to and including `eventId`. */
function mixAt(history: readonly RecordedEvent<MixEvent>[], eventId: string): MixAtEvent | null {
  let mix: MixAtEvent | null = null;
  for (const recorded of history) {
    const event = recorded as MixEvent;
    if (event.type === 'MixSessionCreated') {
      mix = { ownerId: event.data.ownerId, name: event.data.name, tracks: [], files: {}, unlocked: false };
    } else if (mix && event.type === 'MixTrackAdded') {
      mix.tracks.push({ trackId: event.data.trackId, filename: event.data.filename });
    } else if (mix && event.type === 'MixTrackRemoved') {
      mix.tracks = mix.tracks.filter((track) => track.trackId !== event.data.trackId);
    } else if (mix && event.type === 'MixReady') {
      mix.files = event.data.files;
    } else if (mix && event.type === 'MixUnlocked') {
      mix.unlocked = true;
    }
    if (recorded.id === eventId) break;
  }
  return mix;
}
