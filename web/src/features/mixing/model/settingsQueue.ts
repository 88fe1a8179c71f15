import { definedOnly, SETTINGS_DELAY_MS, type TrackSettings } from './mixing';

export type SettingsChange = { [K in keyof TrackSettings]?: TrackSettings[K] | undefined };

/**
 * Collects each track's settings changes and sends them once no change has come for 300 ms (spec §5), undefined
 * values dropped; changes to the same track in that time go out together, the last value of each field winning.
 */
export class SettingsQueue {
  private readonly pending = new Map<
    string,
    { changes: Partial<TrackSettings>; timer: ReturnType<typeof setTimeout> }
  >();

  constructor(
    private readonly send: (trackId: string, changes: Partial<TrackSettings>) => void,
    private readonly delayMs = SETTINGS_DELAY_MS,
  ) {}

  change(trackId: string, changes: SettingsChange): void {
    const defined = definedOnly(changes) as Partial<TrackSettings>;
    const current = this.pending.get(trackId);
    if (current) clearTimeout(current.timer);
    const merged = { ...current?.changes, ...defined };
    const timer = setTimeout(() => this.flush(trackId), this.delayMs);
    this.pending.set(trackId, { changes: merged, timer });
  }

  /** Sends a track's waiting changes now (nothing when there are none). */
  flush(trackId: string): void {
    const current = this.pending.get(trackId);
    if (!current) return;
    clearTimeout(current.timer);
    this.pending.delete(trackId);
    if (Object.keys(current.changes).length > 0) this.send(trackId, current.changes);
  }

  flushAll(): void {
    for (const trackId of [...this.pending.keys()]) this.flush(trackId);
  }

  get waiting(): boolean {
    return this.pending.size > 0;
  }

  /** Forgets what is waiting (the page is going away). */
  dispose(): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
