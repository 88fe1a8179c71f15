import type { EngineSpeedDocument, TrackEvent } from '@kora/audio/contracts';
import { defineProjection } from '@kora/kernel';

/** Weight of the newest measurement in the moving average. */
const ALPHA = 0.2;

/**
 * The engine's measured speed per service: an exponential moving average of processing seconds per second of
 * audio, from every finished job. The status endpoint's time estimates come from it.
 */
export const engineSpeedProjection = defineProjection<TrackEvent, EngineSpeedDocument>({
  name: 'engine-speed',
  version: 1,
  collection: 'engine_speed',
  handles: ['PreviewReady', 'StemsReady'],
  target: (event) => (event.type === 'PreviewReady' || event.type === 'StemsReady' ? { id: event.data.service } : null),
  evolve(current, event) {
    if (event.type !== 'PreviewReady' && event.type !== 'StemsReady') return current;
    const { durationSec, processingSeconds, service } = event.data;
    if (durationSec <= 0) return current;
    const measured = processingSeconds / durationSec;
    return {
      _id: service,
      realTimeFactor: current ? current.realTimeFactor * (1 - ALPHA) + measured * ALPHA : measured,
      samples: (current?.samples ?? 0) + 1,
    };
  },
});
