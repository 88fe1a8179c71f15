import { AUDIT_EVENT_TYPES, type AuditOptions, type AuditReport, LedgerAudit } from '@kora/billing';
import { type AnyProjection, type EventStore, type ReadStore, type RecordedEvent } from '@kora/kernel';
import { allProjections } from '@kora/projections';

/** The billing read models the audit compares with its replay of the log. */
export const BILLING_READ_MODELS = ['payments', 'credit-accounts', 'usage-history', 'unlocked-tracks'] as const;

export interface ReadModelDifference {
  readModel: string;
  collection: string;
  id: string;
  problem: 'missing' | 'unexpected' | 'different';
  /** The last event of the log that changed it (by the replay), when there is one. */
  lastEvent: { id: string; type: string; streamName: string; position: number } | null;
}

export interface AuditResult {
  report: AuditReport;
  differences: ReadModelDifference[];
  /** Events read from the log (the audit's and the read models' types). */
  eventsRead: number;
  /** Milliseconds spent reading and replaying the log. */
  replayMs: number;
  head: number;
}

const BATCH = 10_000;

/** JSON with sorted keys, so documents compare whatever the order their store keeps keys in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([key, v]) => key !== '_position' && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

interface Replayed {
  projection: AnyProjection;
  /** Events at or below it are in the read model (its checkpoint when the audit started). */
  checkpoint: number;
  handles: ReadonlySet<string>;
  /** The replayed documents (without `_position`, which the comparison leaves out). */
  docs: Map<string, Record<string, unknown>>;
  last: Map<string, RecordedEvent>;
}

/**
 * Replays every payment and credit event (and the unlocks) from the LOG, never from the read models, through the
 * ledger audit; replays the billing read models' projections over the same events up to each one's checkpoint and
 * compares them with what the read store holds.
 */
export async function runAudit(events: EventStore, reads: ReadStore, options: AuditOptions): Promise<AuditResult> {
  const projections = allProjections.filter((p) => (BILLING_READ_MODELS as readonly string[]).includes(p.name));
  const replays: Replayed[] = [];
  for (const projection of projections) {
    const checkpoint = (await reads.getCheckpoint(projection.name))?.position ?? 0;
    replays.push({ projection, checkpoint, handles: new Set(projection.handles), docs: new Map(), last: new Map() });
  }
  const types = [...new Set([...AUDIT_EVENT_TYPES, ...projections.flatMap((p) => p.handles as string[])])];
  const auditTypes = new Set(AUDIT_EVENT_TYPES);
  const audit = new LedgerAudit(options);
  const head = await events.headPosition();
  const started = performance.now();
  let after = 0;
  let eventsRead = 0;
  for (;;) {
    const { events: batch, scannedTo } = await events.readAll({ after, maxCount: BATCH, types });
    for (const event of batch) {
      if (event.position > head) break;
      eventsRead += 1;
      if (auditTypes.has(event.type)) audit.add(event);
      for (const replay of replays) {
        if (event.position > replay.checkpoint || !replay.handles.has(event.type)) continue;
        const target = replay.projection.target(event);
        if (!target) continue;
        if (!('id' in target)) throw new Error(`${replay.projection.name}: only targets by id are audited`);
        const current = replay.docs.get(target.id) ?? null;
        const next = replay.projection.evolve(current, event) as Record<string, unknown> | null;
        if (next) replay.docs.set(target.id, next);
        else replay.docs.delete(target.id);
        replay.last.set(target.id, event);
      }
    }
    if (batch.length < BATCH || scannedTo >= head) break;
    after = scannedTo;
  }
  const report = audit.finish();
  const replayMs = performance.now() - started;

  const differences: ReadModelDifference[] = [];
  for (const replay of replays) {
    const stored = await reads.collection(replay.projection.collection).find({});
    const seen = new Set<string>();
    const lastEvent = (id: string) => {
      const event = replay.last.get(id);
      return event ? { id: event.id, type: event.type, streamName: event.streamName, position: event.position } : null;
    };
    const differ = (id: string, problem: ReadModelDifference['problem']) =>
      differences.push({
        readModel: replay.projection.name,
        collection: replay.projection.collection,
        id,
        problem,
        lastEvent: lastEvent(id),
      });
    for (const doc of stored as Array<Record<string, unknown> & { _id: string; _position?: number }>) {
      // Changed after the audit read the checkpoint (the server runs on): not comparable, skipped.
      seen.add(doc._id);
      if ((doc._position ?? 0) > replay.checkpoint) continue;
      const expected = replay.docs.get(doc._id);
      if (!expected) differ(doc._id, 'unexpected');
      else if (canonical(expected) !== canonical(doc)) differ(doc._id, 'different');
    }
    for (const id of replay.docs.keys()) if (!seen.has(id)) differ(id, 'missing');
  }
  return { report, differences, eventsRead, replayMs, head };
}
