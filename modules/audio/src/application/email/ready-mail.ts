import {
  type LocalisedText,
  type MailMessage,
  readyMail as resultReadyMail,
  type ReadyMailInput as ResultReadyMailInput,
} from '@kora/kernel';
import type { TrackService } from '../../contracts/events';

/** What the job made, per service: "The mastering of “song” is done." */
const DONE: Record<TrackService, LocalisedText> = {
  AI_MASTERING: {
    en: 'The mastering of “{name}” is done.',
    fr: 'Le mastering de « {name} » est terminé.',
  },
  STEM_SEPARATION: {
    en: 'The separation of “{name}” into stems is done.',
    fr: 'La séparation en pistes de « {name} » est terminée.',
  },
  AUDIO_ENHANCEMENT: {
    en: 'The enhancement of “{name}” is done.',
    fr: 'L’amélioration de « {name} » est terminée.',
  },
};

/** The kernel's result mail, said of a track: what the service did comes from `service`. */
export type ReadyMailInput = Omit<ResultReadyMailInput, 'done' | 'unlockWhat' | 'template'> & {
  readonly service: TrackService;
};

/** "Your track is ready" (the kernel's result mail), saying what the service did. */
export function readyMail({ service, ...input }: ReadyMailInput): MailMessage {
  return resultReadyMail({
    ...input,
    done: DONE[service],
    unlockWhat: { en: 'the track', fr: 'le morceau' },
    template: 'track-ready',
  });
}
