import type { ProcessingOptions, TrackFiles, TrackService, TrackStatus } from './events';

/** The recent-tracks read model (`tracks`): one document per live track. */
export interface TrackDocument {
  _id: string;
  userId: string;
  filename: string;
  format: string;
  contentType: string;
  service: TrackService;
  options: ProcessingOptions;
  status: TrackStatus;
  error: { code: string; message: string } | null;
  isDemo: boolean;
  isVideo: boolean;
  unlocked: boolean;
  fileSize: number;
  durationSec: number;
  sampleRate: number;
  channels: number;
  files: TrackFiles;
  stems: string[];
  jobId: string | null;
  attempt: number;
  progress: number;
  processingStartedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The media library (`library`): files a user uploaded, for picking one again. */
export interface LibraryDocument {
  _id: string;
  userId: string;
  filename: string;
  /** The name without a trailing ` (n)` copy marker, lower-cased: copies collapse to the newest. */
  collapseKey: string;
  fileSize: number;
  /** What the file is (by content), so a service is offered only the files it takes. */
  format: string;
  isVideo: boolean;
  durationSec: number;
  service: TrackService;
  createdAt: string;
}

/** Measured engine speed per service (`engine_speed`): processing seconds per second of audio. */
export interface EngineSpeedDocument {
  _id: TrackService;
  realTimeFactor: number;
  samples: number;
}

export interface TrackListFilter {
  userId: string;
  service?: TrackService;
  isDemo?: boolean;
  trackId?: string;
  search?: string;
}

export class GetTrack {
  constructor(
    readonly userId: string,
    readonly trackId: string,
  ) {}
}

export class ListTracks {
  constructor(
    readonly filter: TrackListFilter,
    readonly page: number,
    readonly limit: number,
    /** Tracks to pass over before the first one returned, when not `(page - 1) * limit`. */
    readonly skip?: number,
  ) {}
}

export interface TrackPage {
  tracks: TrackDocument[];
  totalCount: number;
}

export class CountTracksInProgress {
  constructor(
    readonly userId: string,
    readonly service: TrackService,
  ) {}
}

export class GetLibrary {
  constructor(
    readonly userId: string,
    readonly limit: number,
  ) {}
}

export class GetEngineSpeed {
  constructor(readonly service: TrackService) {}
}
