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
