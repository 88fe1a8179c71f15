import type { EventStore } from '@kora/kernel';

export interface CopyProgress {
  readonly copied: number;
  readonly skipped: number;
  readonly position: number;
  readonly head: number;
}

/**
 * Copies every event of `source`, in global order, into `target`, keeping ids, types, data, metadata and each
 * stream's revisions. Each event is appended with the expected revision it had, so the copy refuses to write into a
 * stream that already diverges; an event already present with the same id is acknowledged by the target without a
 * second write, so a copy that stopped half-way can simply be run again.
 */
export async function copyEvents(
  source: EventStore,
  target: EventStore,
  onProgress?: (progress: CopyProgress) => void,
): Promise<CopyProgress> {
  const head = await source.headPosition();
  let position = 0;
  let copied = 0;
  let skipped = 0;
  for (;;) {
    const { events, scannedTo } = await source.readAll({ after: position, maxCount: 500 });
    if (events.length === 0) break;
    // Consecutive events of one stream go in one append (they were often appended together).
    for (let i = 0; i < events.length;) {
      const first = events[i]!;
      let end = i + 1;
      while (end < events.length && events[end]!.streamName === first.streamName && end - i < 100) end += 1;
      const batch = events.slice(i, end);
      const targetHead = await target.readStream(first.streamName, { fromRevision: first.revision, maxCount: 1 });
      if (targetHead[0]?.id === first.id) {
        skipped += batch.length; // copied by an earlier run
      } else {
        await target.append(
          first.streamName,
          batch.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
          first.revision === 0 ? 'no_stream' : first.revision - 1,
        );
        copied += batch.length;
      }
      i = end;
    }
    position = scannedTo;
    onProgress?.({ copied, skipped, position, head });
  }
  return { copied, skipped, position, head };
}
