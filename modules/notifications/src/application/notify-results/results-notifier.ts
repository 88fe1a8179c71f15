import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { GetTrack, type TrackDocument, type TrackEvent, type TrackService } from '@kora/audio/contracts';
import { type RecordedEvent, streamId } from '@kora/kernel';
import { ProcessorRegistry } from '@kora/kernel/nest';
import { SendNotification } from '../../contracts/commands';
import type { LocalisedText, NotificationKind } from '../../contracts/events';

type Watched = Extract<TrackEvent, { type: 'PreviewReady' | 'StemsReady' | 'MasterReady' | 'ProcessingFailed' }>;

/** "The mastering of “song” is done", per service, in both languages. */
const PREVIEW_DONE: Record<TrackService, LocalisedText> = {
  AI_MASTERING: {
    en: 'The mastering of “{name}” is done: listen to the preview.',
    fr: 'Le mastering de « {name} » est terminé : écoutez l’aperçu.',
  },
  STEM_SEPARATION: {
    en: 'The separation of “{name}” is done: listen to the preview.',
    fr: 'La séparation de « {name} » est terminée : écoutez l’aperçu.',
  },
  AUDIO_ENHANCEMENT: {
    en: 'The enhancement of “{name}” is done: listen to the preview.',
    fr: 'L’amélioration de « {name} » est terminée : écoutez l’aperçu.',
  },
};

const fill = (text: LocalisedText, name: string): LocalisedText => ({
  en: text.en.replace('{name}', name),
  fr: text.fr.replace('{name}', name),
});

/** The texts of each result notification, in both languages. */
export function resultTexts(
  kind: NotificationKind,
  filename: string,
  service: TrackService,
): { title: LocalisedText; message: LocalisedText } {
  const name = filename.replace(/<[^>]*>/g, '');
  switch (kind) {
    case 'PREVIEW_READY':
      return {
        title: { en: 'Your preview is ready', fr: 'Votre aperçu est prêt' },
        message: fill(PREVIEW_DONE[service], name),
      };
    case 'STEMS_READY':
      return {
        title: { en: 'Your stems are ready', fr: 'Vos pistes sont prêtes' },
        message: {
          en: `“${name}” is separated: listen to each stem.`,
          fr: `« ${name} » est séparé : écoutez chaque piste.`,
        },
      };
    case 'MASTER_READY':
      return {
        title: { en: 'Your master is ready', fr: 'Votre master est prêt' },
        message: {
          en: `The full-quality files of “${name}” are ready to download.`,
          fr: `Les fichiers en pleine qualité de « ${name} » sont prêts à télécharger.`,
        },
      };
    default:
      return {
        title: { en: 'Processing failed', fr: 'Le traitement a échoué' },
        message: {
          en: `We could not process “${name}”. Please try again.`,
          fr: `Nous n’avons pas pu traiter « ${name} ». Merci de réessayer.`,
        },
      };
  }
}

/** Notifies the owner when a result is ready (or failed), once per event. Demo tracks notify nobody. */
@Injectable()
export class ResultsNotifier implements OnModuleInit {
  constructor(
    private readonly registry: ProcessorRegistry,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'result-notifications',
      handles: ['PreviewReady', 'StemsReady', 'MasterReady', 'ProcessingFailed'],
      handle: (event) => this.notify(event as RecordedEvent<Watched>),
    });
  }

  private async notify(event: RecordedEvent<Watched>): Promise<void> {
    const userId = event.metadata.userId;
    const trackId = streamId(event.streamName);
    const track = await this.queries.execute<GetTrack, TrackDocument | null>(new GetTrack(userId, trackId));
    if (!track || track.isDemo) return;
    const kind: NotificationKind =
      event.type === 'PreviewReady'
        ? 'PREVIEW_READY'
        : event.type === 'StemsReady'
          ? 'STEMS_READY'
          : event.type === 'MasterReady'
            ? 'MASTER_READY'
            : 'PROCESSING_FAILED';
    if (event.type === 'ProcessingFailed' && event.data.code === 'PROCESSING.CANCELLED') return;
    const { title, message } = resultTexts(kind, track.filename, track.service);
    await this.commands.execute(new SendNotification(userId, kind, title, message, trackId, event.id));
  }
}
