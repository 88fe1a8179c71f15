import type { ProcessingOptions, TrackFiles, TrackService, TrackUploaded } from './events';

/** Gives an account a demo track made from shared demo material: already processed and unlocked. */
export class ProvisionDemoTrack {
  constructor(
    readonly userId: string,
    /** Deterministic per account and service, so a repeated request provisions nothing twice. */
    readonly trackId: string,
    readonly service: TrackService,
    readonly material: Omit<TrackUploaded['data'], 'trackId' | 'ownerId' | 'service' | 'isDemo'>,
    readonly files: TrackFiles,
    readonly stems: string[] | null,
    readonly options: ProcessingOptions,
  ) {}
}

/**
 * Unlocks a user's track once its result is paid for (a captured payment or a spent credit): the full result then
 * streams and downloads. A track of another user is as absent as a deleted one. Unlocking twice changes nothing.
 */
export class UnlockTrack {
  constructor(
    readonly userId: string,
    readonly trackId: string,
    readonly via: 'payment' | 'credit',
    /** The event that paid for it (the capture or the spend), recorded as the unlock's cause. */
    readonly causationId: string,
  ) {}
}
