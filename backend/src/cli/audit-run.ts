import { AUDIT_EVENT_TYPES, type AuditOptions, type AuditReport, LedgerAudit } from '@kora/billing';
import { type AnyProjection, type EventStore, type ReadStore } from '@kora/kernel';
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

/**
 * Events read per call. Small enough that a batch is mostly garbage before the next young-generation collection:
 * a batch of 10,000 was still alive at most of them, so each copied its rows and parsed events (several MB).
 */
const BATCH = 1_000;

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

/** What a difference names of the last event that changed a document. */
type LastEvent = NonNullable<ReadModelDifference['lastEvent']>;

interface Replayed {
  projection: AnyProjection;
  /** Events at or below it are in the read model (its checkpoint when the audit started). */
  checkpoint: number;
  /** The replayed documents (without `_position`, which the comparison leaves out). */
  docs: Map<string, Record<string, unknown>>;
  /**
   * The last event that changed each document, as the four fields a difference names: keeping the whole event (its
   * parsed data and metadata) for nearly every event replayed would leave the garbage collector copying them.
   */
  last: Map<string, LastEvent>;
}

/** For one event type: whether the ledger audit takes it, and the replays whose projection handles it. */
interface Route {
  audit: boolean;
  replays: Replayed[];
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
    replays.push({ projection, checkpoint, docs: new Map(), last: new Map() });
  }
  const types = [...new Set([...AUDIT_EVENT_TYPES, ...projections.flatMap((p) => p.handles as string[])])];
  // One lookup by type per event, instead of one per projection and one for the audit.
  const routes = new Map<string, Route>();
  for (const type of types) {
    routes.set(type, {
      audit: AUDIT_EVENT_TYPES.includes(type),
      replays: replays.filter((replay) => (replay.projection.handles as readonly string[]).includes(type)),
    });
  }
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
      const route = routes.get(event.type);
      if (!route) continue; // not asked for (a store returns only the types asked for)
      if (route.audit) audit.add(event);
      let last: LastEvent | null = null;
      for (const replay of route.replays) {
        if (event.position > replay.checkpoint) continue;
        const target = replay.projection.target(event);
        if (!target) continue;
        if (!('id' in target)) throw new Error(`${replay.projection.name}: only targets by id are audited`);
        const current = replay.docs.get(target.id) ?? null;
        const next = replay.projection.evolve(current, event) as Record<string, unknown> | null;
        if (next) replay.docs.set(target.id, next);
        else replay.docs.delete(target.id);
        last ??= { id: event.id, type: event.type, streamName: event.streamName, position: event.position };
        replay.last.set(target.id, last);
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
    const lastEvent = (id: string): LastEvent | null => {
      const event = replay.last.get(id);
      return event ? { ...event } : null;
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
