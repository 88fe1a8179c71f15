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
