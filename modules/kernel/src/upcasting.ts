import type { RecordedEvent } from './events';

/** Turns the data of one schema version into the next one's. */
export type Upcaster = (data: unknown) => unknown;

const upcasters = new Map<string, Map<number, Upcaster>>();

/**
 * Registers how `type` at `fromVersion` becomes `fromVersion + 1`. Stored events are never rewritten; readers see
 * the newest shape because every read goes through `upcast`.
 */
export function registerUpcaster(type: string, fromVersion: number, upcaster: Upcaster): void {
  let byVersion = upcasters.get(type);
  if (!byVersion) upcasters.set(type, (byVersion = new Map()));
  if (byVersion.has(fromVersion)) throw new Error(`Upcaster for ${type} v${fromVersion} registered twice`);
  byVersion.set(fromVersion, upcaster);
}

export function upcast<E extends RecordedEvent>(event: E): E {
  const byVersion = upcasters.get(event.type);
  if (!byVersion) return event;
  let { schemaVersion } = event.metadata;
  let data = event.data;
  for (let step = byVersion.get(schemaVersion); step; step = byVersion.get(schemaVersion)) {
    data = step(data);
    schemaVersion += 1;
  }
  return schemaVersion === event.metadata.schemaVersion
    ? event
    : { ...event, data, metadata: { ...event.metadata, schemaVersion } };
}
