import type {
  InstrumentGroup,
  MixSampleRate,
  MusicalStyle,
  PanPreference,
  PresenceSetting,
  ReverbPreference,
} from './mixing';

/** What the mixer decided for one track, from the engine's report: shown on the board's row. */
export interface MixerDecisions {
  gainDb: number;
  targetLufs: number;
  /**
   * `purpose` (what the move is for: `harshness`, `mud`, `masking`...) and `maskedBy` (the track a masking cut makes
   * room for) let the client word the move in its language; `reason` is the engine's English wording.
   */
  eq: Array<{
    type: string;
    freqHz: number;
    gainDb: number;
    q: number;
    purpose?: string;
    maskedBy?: string;
    reason: string;
  }>;
  compression: {
    thresholdDb: number;
    ratio: number;
    attackMs: number;
    releaseMs: number;
    meanReductionDb: number;
  } | null;
  pan: { position: number; width: number; reason: string };
  reverbSendDb: number | null;
}

/** A row of a finished mix's board (`GET /api/mixing/sessions/{id}/preview`): the mix itself (`type: mix`) or a track. */
export interface MixResultRow {
  trackId: string;
  name: string;
  type: string;
  url: string;
  mixer?: MixerDecisions | null;
}

/** A mixing session's status: CREATED while its tracks are gathered, then the mix's. */
export const MIX_SESSION_STATUSES = ['CREATED', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type MixSessionStatus = (typeof MIX_SESSION_STATUSES)[number];

/** How one track of a session is to be mixed (its row's settings). */
export interface MixTrackSettings {
  instrumentGroup: InstrumentGroup;
  presenceSetting: PresenceSetting;
  panPreference: PanPreference;
  reverbPreference: ReverbPreference;
}

/** What `POST /api/mixing/sessions/create` takes: the session's name, style and sample rate. */
export interface CreateMixSessionRequest {
  name: string;
  mixingStyle: MusicalStyle;
  sampleRate: MixSampleRate;
}

/** What `PUT /api/mixing/tracks/{id}` takes: the settings to change, the others kept. */
export type MixTrackSettingsChange = Partial<MixTrackSettings>;

/**
 * What `PUT /api/mixing/tracks/batch-settings` takes: several tracks' changes, and the session's style (`musicalStyle`,
 * or `mixingStyle` as the create request names it) and sample rate.
 */
export interface BatchSettingsRequest {
  updates: Array<{ trackId: string } & MixTrackSettingsChange>;
  musicalStyle?: MusicalStyle;
  mixingStyle?: MusicalStyle;
  sampleRate?: MixSampleRate;
}

/** A track of a session (`tracks` of a session). */
export interface MixTrack extends MixTrackSettings {
  id: string;
  trackId: string;
  filename: string;
  /** `duration` in seconds, `fileSize` in bytes. */
  trackDetails: { duration: number; fileSize: number; filename: string };
  sampleRate: number;
  /** Where its original plays from. */
  url: string;
}

/**
 * A mixing session (`GET /api/mixing/sessions/{id}`, `{ session }` of every call that changes one, `{ sessions }` of the
 * list).
 */
export interface MixSession {
  id: string;
  name: string;
  mixingStyle: MusicalStyle;
  sampleRate: MixSampleRate;
  status: MixSessionStatus;
  error: string | null;
  errorCode: string | null;
  unlocked: boolean;
  tracks: MixTrack[];
  createdAt: string;
  updatedAt: string;
}

/**
 * `{ session }`: the answer of `GET /api/mixing/sessions/{id}` and of the calls that change one (create it, add its
 * tracks, one at a time or a batch, change a track's settings).
 */
export interface MixSessionAnswer {
  session: MixSession;
}

/** `PUT /api/mixing/tracks/batch-settings`: the session as changed (null when no track was named). */
export interface BatchSettingsAnswer {
  success: true;
  session: MixSession | null;
}

/** `GET /api/mixing/sessions/{id}/preview`: the session and its board's rows (none before the mix is made). */
export interface MixPreview {
  session: MixSession;
  status: MixSessionStatus;
  tracks: MixResultRow[];
  mixingStyle: MusicalStyle;
  sampleRate: MixSampleRate;
}

/** `POST /api/mixing/sessions/{id}/master`: the mix asked for; its rows once it is made (none before). */
export type MixRequestAnswer = Omit<MixPreview, 'session'>;

/** `GET /api/mixing/sessions/{id}/status`. */
export interface MixStatusAnswer {
  status: MixSessionStatus;
  error: string | null;
}

/**
 * The `mix.status` socket message to the owner: the mix started, progressed (`progress` 0..1, at most twice a second),
 * is ready, failed, was cancelled, or was unlocked (`unlocked: true`).
 */
export interface MixStatusMessage extends MixStatusAnswer {
  sessionId: string;
  progress?: number;
  unlocked?: true;
}
