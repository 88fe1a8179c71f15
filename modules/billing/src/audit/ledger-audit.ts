import { type RecordedEvent, streamCategory, streamId } from '@kora/kernel';
import {
  type BillingService,
  CREDIT_EVENT_TYPES,
  type CreditEvent,
  type Currency,
  type Money,
  PAYMENT_EVENT_TYPES,
  type PaymentEvent,
  type PaymentIntentCreated,
  type PaymentProvider,
} from '../contracts/events';

/**
 * The ledger audit (`npm run audit`): replays every payment and credit event of the log, in log order, with the
 * unlocks they caused, and checks the ledger's invariants with its own arithmetic (not the deciders'):
 * - a payment stream starts with its intent; it is captured at most once, for the price recorded at sale, and
 *   refunded only after a capture, each refund id once, the refunds together for at most what was captured;
 * - every capture is granted exactly once (a PACK payment: one `PackPurchased` on its owner's credits, with the
 *   price, plan and credits of the sale; a TRACK payment: one `TrackUnlocked`/`MixUnlocked` it caused), and nothing
 *   is granted that was not captured;
 * - no pack goes below zero and every `balance` an event carries is the replay's (the credits usable at its instant);
 * - every spend is of a pack of its service usable at that instant, once per result, and tied to the unlock it
 *   caused; every unlock by credit or payment was paid for;
 * - credits are revoked only for a refunded payment, and expire only at or after the pack's end date.
 * Feed it every event of `AUDIT_EVENT_TYPES` in log order, then `finish()`.
 */
export const AUDIT_EVENT_TYPES: readonly string[] = [
  ...PAYMENT_EVENT_TYPES,
  ...CREDIT_EVENT_TYPES,
  'TrackUnlocked',
  'MixUnlocked',
];

export interface EventRef {
  id: string;
  type: string;
  streamName: string;
  revision: number;
  position: number;
}

export interface AuditViolation {
  rule: string;
  message: string;
  events: EventRef[];
  /** The accounts it concerns (for `--account`). */
  accounts: string[];
}

export interface RevenueRow {
  currency: Currency;
  provider: PaymentProvider;
  /** Payments captured in the window. */
  captures: number;
  captured: number;
  refunds: number;
  refunded: number;
  /** captured - refunded, in minor units. */
  net: number;
}

export interface BalanceRow {
  userId: string;
  service: BillingService;
  granted: number;
  spent: number;
  expired: number;
  revoked: number;
  /** Not spent, expired or revoked (whatever the date). */
  held: number;
  /** Of those, in packs usable at the balance instant. */
  usable: number;
}

export interface AuditReport {
  /** Events replayed. */
  events: number;
  payments: number;
  accounts: number;
  violations: AuditViolation[];
  revenue: RevenueRow[];
  balances: BalanceRow[];
  /** The instant balances are given at (`--to`, else now). */
  balancesAt: string;
}

export interface AuditOptions {
  /** Only this account in the report and its violations. */
  account?: string;
  /** Revenue of captures and refunds at or after this instant. */
  from?: string;
  /** Revenue before this instant; balances as of it. */
  to?: string;
  /** The instant balances are given at when `to` is not set. */
  now?: string;
}

interface PaymentTally {
  paymentId: string;
  intent: PaymentIntentCreated['data'] | null;
  intentRef: EventRef | null;
  captures: EventRef[];
  /** The refunds, in log order, and by refund id (one id twice is a violation). */
  refunds: EventRef[];
  refundIds: Map<string, EventRef>;
  /** What the refunds gave back in all, in the captured currency (one in another currency is a violation). */
  refunded: number;
  grants: EventRef[];
  /** Money reported that did not match the sale, by capture id: the event, and the operator's resolution. */
  anomalies: Map<string, { ref: EventRef; kind: string; resolution: 'granted' | 'refunded' | null }>;
  /** The captured amount (what a refund may give back). */
  captured: Money | null;
}

interface PackTally {
  packId: string;
  userId: string;
  service: BillingService;
  credits: number;
  used: number;
  removed: number;
  startDate: string;
  endDate: string;
}

interface Counts {
  granted: number;
  spent: number;
  expired: number;
  revoked: number;
}

interface SpendTally {
  ref: EventRef;
  userId: string;
  trackId: string;
}

interface UnlockTally {
  ref: EventRef;
  userId: string;
  via: string;
  causationId: string;
}

const refOf = (event: RecordedEvent): EventRef => ({
  id: event.id,
  type: event.type,
  streamName: event.streamName,
  revision: event.revision,
  position: event.position,
});

const sameMoney = (a: Money | undefined, b: Money | undefined): boolean =>
  !!a && !!b && a.amount === b.amount && a.currency === b.currency;

const notMore = (a: Money | undefined, b: Money | undefined): boolean =>
  !!a && !!b && a.currency === b.currency && a.amount <= b.amount;

const showMoney = (money: Money | undefined): string => (money ? `${money.amount} ${money.currency}` : 'none');

/** Whether a stream is the result's: `track-{id}` or `mix-{id}`. */
const isResultStream = (streamName: string, resultId: string): boolean =>
  streamName === `track-${resultId}` || streamName === `mix-${resultId}`;

export class LedgerAudit {
  private readonly payments = new Map<string, PaymentTally>();
  private readonly packs = new Map<string, PackTally>();
  /** Per account: the packs in order of purchase. */
  private readonly accountPacks = new Map<string, PackTally[]>();
  /** Per account and service: what happened (for the balance table, within `to`). */
  private readonly counts = new Map<string, Counts>();
  /** The packs as of `to` (a copy taken at the first event at or after it). */
  private packsAtTo: Map<string, PackTally> | null = null;
  private readonly spends = new Map<string, SpendTally>();
  /** Per account, the results a credit was spent on (a second spend on one is a violation). */
  private readonly spentOn = new Map<string, Map<string, EventRef>>();
  private readonly unlocks: UnlockTally[] = [];
  private readonly revenue = new Map<string, RevenueRow>();
  private readonly violations: AuditViolation[] = [];
  private replayed = 0;
  /** Whether any payment went through a live provider (then a sandbox capture gave something away). */
  private liveSeen = false;
  private readonly sandboxCaptures: Array<{ ref: EventRef; owner: string; paymentId: string }> = [];

  constructor(private readonly options: AuditOptions = {}) {}

  private violation(rule: string, message: string, events: EventRef[], accounts: Array<string | null | undefined>) {
    this.violations.push({ rule, message, events, accounts: accounts.filter((a): a is string => !!a) });
  }

  private payment(paymentId: string): PaymentTally {
    let tally = this.payments.get(paymentId);
    if (!tally) {
      tally = {
        paymentId,
        intent: null,
        intentRef: null,
        captures: [],
        refunds: [],
        refundIds: new Map(),
        refunded: 0,
        grants: [],
        anomalies: new Map(),
        captured: null,
      };
      this.payments.set(paymentId, tally);
    }
    return tally;
  }

  private inWindow(at: string): boolean {
    return (!this.options.from || at >= this.options.from) && (!this.options.to || at < this.options.to);
  }

  /** Revenue counts captures and refunds in the window, of the account asked for (or all). */
  private counted(intent: PaymentIntentCreated['data'], at: string): boolean {
    return this.inWindow(at) && (!this.options.account || intent.ownerId === this.options.account);
  }

  /** Revenue in the currency the money actually moved in (an anomaly granted in another one is counted there). */
  private revenueRow(intent: PaymentIntentCreated['data'], currency: Money['currency']): RevenueRow {
    const key = `${currency}|${intent.provider}`;
    let row = this.revenue.get(key);
    if (!row) {
      row = {
        currency,
        provider: intent.provider,
        captures: 0,
        captured: 0,
        refunds: 0,
        refunded: 0,
        net: 0,
      };
      this.revenue.set(key, row);
    }
    return row;
  }

  private count(userId: string, service: BillingService, at: string, change: Partial<Counts>) {
    if (this.options.to && at >= this.options.to) return;
    const key = `${userId}|${service}`;
    let counts = this.counts.get(key);
    if (!counts) this.counts.set(key, (counts = { granted: 0, spent: 0, expired: 0, revoked: 0 }));
    counts.granted += change.granted ?? 0;
    counts.spent += change.spent ?? 0;
    counts.expired += change.expired ?? 0;
    counts.revoked += change.revoked ?? 0;
  }

  /** Credits of a service not spent, expired or revoked, in the account's packs usable at `at` (as events carry). */
  private usableAt(userId: string, service: BillingService, at: string): number {
    let total = 0;
    for (const pack of this.accountPacks.get(userId) ?? []) {
      const left = pack.credits - pack.used - pack.removed;
      if (pack.service === service && pack.startDate <= at && at < pack.endDate && left > 0) total += left;
    }
    return total;
  }

  /** One event, in log order. */
  add(event: RecordedEvent): void {
    if (this.options.to && !this.packsAtTo && event.metadata.occurredAt >= this.options.to) {
      this.packsAtTo = new Map([...this.packs].map(([id, pack]) => [id, { ...pack }]));
    }
    this.replayed += 1;
    const category = streamCategory(event.streamName);
    if (category === 'payment') this.addPayment(event as RecordedEvent<PaymentEvent>);
    else if (category === 'credits') this.addCredit(event as RecordedEvent<CreditEvent>);
    else if (event.type === 'TrackUnlocked' || event.type === 'MixUnlocked') {
      const via = (event.data as { via?: string }).via ?? '';
      if (via === 'demo') return;
      this.unlocks.push({
        ref: refOf(event),
        userId: event.metadata.userId,
        via,
        causationId: event.metadata.causationId,
      });
    }
  }

  private addPayment(event: RecordedEvent<PaymentEvent>): void {
    const paymentId = streamId(event.streamName);
    const tally = this.payment(paymentId);
    const ref = refOf(event);
    if (event.type === 'PaymentIntentCreated') {
      if (tally.intent) {
        this.violation(
          'payment.intent-twice',
          `payment ${paymentId} has a second intent`,
          [tally.intentRef!, ref],
          [event.data.ownerId],
        );
        return;
      }
      tally.intent = event.data;
      tally.intentRef = ref;
      if (event.data.mode === 'live') this.liveSeen = true;
      if (event.data.paymentId !== paymentId) {
        this.violation(
          'payment.stream',
          `intent for ${event.data.paymentId} recorded on ${event.streamName}`,
          [ref],
          [event.data.ownerId],
        );
      }
      return;
    }
    const intent = tally.intent;
    if (!intent) {
      this.violation(
        'payment.no-intent',
        `${event.type} on payment ${paymentId}, which has no intent before it`,
        [ref],
        [event.metadata.userId],
      );
      return;
    }
    const owner = intent.ownerId;
    switch (event.type) {
      case 'PaymentCaptured':
        tally.captures.push(ref);
        if (tally.captures.length > 1) {
          this.violation('payment.captured-twice', `payment ${paymentId} is captured more than once`, tally.captures, [
            owner,
          ]);
          return;
        }
        if (tally.refunds.length > 0) {
          this.violation(
            'payment.captured-after-refund',
            `payment ${paymentId} is captured after its refund`,
            [ref],
            [owner],
          );
        }
        tally.captured = event.data.amount;
        if (event.data.source === 'operator') {
          // Granted by an operator's resolution of an anomaly: whatever amount the provider took.
          if (tally.anomalies.get(event.data.captureId)?.resolution !== 'granted') {
            this.violation(
              'payment.operator-capture',
              `payment ${paymentId} granted by an operator without a resolved anomaly for ${event.data.captureId}`,
              [ref],
              [owner],
            );
          }
        } else if (!sameMoney(event.data.amount, intent.price)) {
          this.violation(
            'payment.amount',
            `payment ${paymentId} captured ${showMoney(event.data.amount)}, sold at ${showMoney(intent.price)}`,
            [tally.intentRef!, ref],
            [owner],
          );
        }
        if (intent.mode === 'sandbox') this.sandboxCaptures.push({ ref, owner, paymentId });
        if (this.counted(intent, event.metadata.occurredAt)) {
          const row = this.revenueRow(intent, event.data.amount?.currency ?? intent.price.currency);
          row.captures += 1;
          row.captured += event.data.amount?.amount ?? 0;
          row.net = row.captured - row.refunded;
        }
        return;
      case 'PaymentAnomalyDetected':
        tally.anomalies.set(event.data.captureId, { ref, kind: event.data.kind, resolution: null });
        return;
      case 'PaymentAnomalyResolved': {
        const anomaly = tally.anomalies.get(event.data.captureId);
        if (!anomaly) {
          this.violation(
            'payment.anomaly-unknown',
            `payment ${paymentId} resolves an anomaly it never had (${event.data.captureId})`,
            [ref],
            [owner],
          );
          return;
        }
        anomaly.resolution = event.data.resolution;
        return;
      }
      case 'PaymentRefunded': {
        // Refunds add up (a partial refund, then a chargeback); the same refund recorded twice is the violation.
        const earlier = tally.refundIds.get(event.data.refundId);
        if (earlier) {
          this.violation(
            'payment.refunded-twice',
            `payment ${paymentId} records refund ${event.data.refundId} twice`,
            [earlier, ref],
            [owner],
          );
          return;
        }
        tally.refundIds.set(event.data.refundId, ref);
        tally.refunds.push(ref);
        if (tally.captures.length === 0) {
          this.violation(
            'payment.refund-without-capture',
            `payment ${paymentId} is refunded but never captured`,
            [ref],
            [owner],
          );
        }
        // The refunds together give back at most what was captured, in its currency (a partial refund gives back
        // less, and another may follow).
        const captured = tally.captured ?? intent.price;
        const total = event.data.amount && {
          amount: tally.refunded + event.data.amount.amount,
          currency: event.data.amount.currency,
        };
        if (!notMore(total, captured)) {
          this.violation(
            'payment.amount',
            tally.refunds.length > 1
              ? `payment ${paymentId} refunded ${showMoney(total)} in ${tally.refunds.length} refunds, captured ${showMoney(captured)}`
              : `payment ${paymentId} refunded ${showMoney(event.data.amount)}, captured ${showMoney(captured)}`,
            [tally.intentRef!, ...tally.refunds],
            [owner],
          );
        }
        if (event.data.amount?.currency === captured.currency) tally.refunded += event.data.amount.amount;
        if (this.counted(intent, event.metadata.occurredAt)) {
          const row = this.revenueRow(intent, event.data.amount?.currency ?? intent.price.currency);
          row.refunds += 1;
          row.refunded += event.data.amount?.amount ?? 0;
          row.net = row.captured - row.refunded;
        }
        return;
      }
      default:
        return;
    }
  }

  private addCredit(event: RecordedEvent<CreditEvent>): void {
    const userId = streamId(event.streamName);
    const ref = refOf(event);
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'PackPurchased': {
        const d = event.data;
        const payment = this.payments.get(d.paymentId);
        if (payment) payment.grants.push(ref);
        const intent = payment?.intent;
        if (!payment || payment.captures.length === 0 || !intent) {
          this.violation(
            'grant.without-capture',
            `pack ${d.packId} granted for payment ${d.paymentId}, not captured`,
            [ref],
            [userId],
          );
        } else {
          if (payment.grants.length > 1) {
            this.violation(
              'grant.twice',
              `payment ${d.paymentId} is granted ${payment.grants.length} times`,
              [payment.captures[0]!, ...payment.grants],
              [userId],
            );
          }
          const problems: string[] = [];
          if (intent.kind !== 'PACK') problems.push(`a ${intent.kind} payment`);
          if (intent.ownerId !== userId) problems.push(`owner ${intent.ownerId}`);
          if (!sameMoney(d.price, intent.price))
            problems.push(`price ${showMoney(d.price)} vs ${showMoney(intent.price)}`);
          if (d.credits !== intent.credits) problems.push(`credits ${d.credits} vs ${intent.credits}`);
          if (d.service !== intent.service || d.planId !== intent.planId) problems.push('another plan or service');
          if (problems.length > 0) {
            this.violation(
              'grant.mismatch',
              `pack ${d.packId} differs from its sale: ${problems.join(', ')}`,
              [payment.intentRef!, ref],
              [userId, intent.ownerId],
            );
          }
        }
        if (this.packs.has(d.packId)) return; // counted once (the violation above names the second grant)
        const pack: PackTally = {
          packId: d.packId,
          userId,
          service: d.service,
          credits: d.credits,
          used: 0,
          removed: 0,
          startDate: d.startDate,
          endDate: d.endDate,
        };
        this.packs.set(d.packId, pack);
        const list = this.accountPacks.get(userId);
        if (list) list.push(pack);
        else this.accountPacks.set(userId, [pack]);
        this.count(userId, d.service, at, { granted: d.credits });
        this.checkBalance(userId, d.service, d.balance, ref, at);
        return;
      }
      case 'CreditSpent': {
        const d = event.data;
        this.spends.set(d.spendId, { ref, userId, trackId: d.trackId });
        let spent = this.spentOn.get(userId);
        if (!spent) this.spentOn.set(userId, (spent = new Map<string, EventRef>()));
        const earlier = spent.get(d.trackId);
        if (earlier) {
          this.violation('spend.twice', `two credits spent on ${d.trackId}`, [earlier, ref], [userId]);
        } else spent.set(d.trackId, ref);
        const pack = this.packs.get(d.packId);
        if (!pack || pack.userId !== userId) {
          this.violation(
            'spend.unknown-pack',
            `credit spent from pack ${d.packId}, not this account's`,
            [ref],
            [userId],
          );
          return;
        }
        if (pack.service !== d.service) {
          this.violation('spend.wrong-service', `a ${pack.service} credit spent on ${d.service}`, [ref], [userId]);
        }
        if (at < pack.startDate || at >= pack.endDate) {
          this.violation(
            'spend.outside-pack',
            `credit spent at ${at}, outside pack ${d.packId} (${pack.startDate} to ${pack.endDate})`,
            [ref],
            [userId],
          );
        }
        pack.used += d.credits;
        this.count(userId, pack.service, at, { spent: d.credits });
        this.checkPack(pack, ref);
        this.checkBalance(userId, pack.service, d.balance, ref, at);
        return;
      }
      case 'CreditsExpired': {
        const d = event.data;
        const pack = this.packs.get(d.packId);
        if (!pack || pack.userId !== userId) {
          this.violation(
            'expiry.unknown-pack',
            `credits expired from pack ${d.packId}, not this account's`,
            [ref],
            [userId],
          );
          return;
        }
        if (at < pack.endDate) {
          this.violation(
            'expiry.early',
            `pack ${d.packId} expired at ${at}, before its end ${pack.endDate}`,
            [ref],
            [userId],
          );
        }
        pack.removed += d.credits;
        this.count(userId, pack.service, at, { expired: d.credits });
        this.checkPack(pack, ref);
        this.checkBalance(userId, pack.service, d.balance, ref, at);
        return;
      }
      case 'CreditsRevoked': {
        const d = event.data;
        const pack = this.packs.get(d.packId);
        if (!pack || pack.userId !== userId) {
          this.violation(
            'revoke.unknown-pack',
            `credits revoked from pack ${d.packId}, not this account's`,
            [ref],
            [userId],
          );
          return;
        }
        if (!this.payments.get(d.paymentId)?.refunds.length) {
          this.violation(
            'revoke.not-refunded',
            `credits of payment ${d.paymentId} revoked without its refund`,
            [ref],
            [userId],
          );
        }
        pack.removed += d.credits;
        this.count(userId, pack.service, at, { revoked: d.credits });
        this.checkPack(pack, ref);
        this.checkBalance(userId, pack.service, d.balance, ref, at);
        return;
      }
      default:
        return;
    }
  }

  private checkPack(pack: PackTally, ref: EventRef): void {
    const left = pack.credits - pack.used - pack.removed;
    if (left < 0) {
      this.violation('balance.negative', `pack ${pack.packId} is at ${left} credits`, [ref], [pack.userId]);
    }
  }

  /** A credit event's `balance` is what was usable at its instant (a pack ended but not yet expired is not). */
  private checkBalance(userId: string, service: BillingService, recorded: number, ref: EventRef, at: string): void {
    const usable = this.usableAt(userId, service, at);
    if (recorded < 0) {
      this.violation('balance.negative', `${service} balance recorded as ${recorded}`, [ref], [userId]);
    } else if (recorded !== usable) {
      this.violation(
        'balance.mismatch',
        `${service} balance recorded as ${recorded}, the replay says ${usable} usable at ${at}`,
        [ref],
        [userId],
      );
    }
  }

  finish(): AuditReport {
    // Grants and unlocks are matched at the end: an unlock may sit anywhere in the log after its cause.
    const unlocksBy = new Map<string, UnlockTally[]>();
    for (const unlock of this.unlocks) {
      const list = unlocksBy.get(unlock.causationId);
      if (list) list.push(unlock);
      else unlocksBy.set(unlock.causationId, [unlock]);
    }
    const paid = new Set<string>();
    for (const payment of this.payments.values()) {
      const intent = payment.intent;
      if (!intent || payment.captures.length === 0) continue;
      if (intent.kind === 'TRACK') {
        const targets = intent.trackId ? [`track-${intent.trackId}`, `mix-${intent.trackId}`] : [];
        const unlocks = (unlocksBy.get(payment.paymentId) ?? []).filter(
          (u) => u.via === 'payment' && targets.includes(u.ref.streamName),
        );
        for (const unlock of unlocks) paid.add(unlock.ref.id);
        payment.grants.push(...unlocks.map((u) => u.ref));
        if (unlocks.length > 1) {
          this.violation(
            'grant.twice',
            `payment ${payment.paymentId} unlocked ${unlocks.length} results`,
            [payment.captures[0]!, ...payment.grants],
            [intent.ownerId],
          );
        }
      }
      if (payment.grants.length === 0 && payment.refunds.length === 0) {
        this.violation(
          'grant.missing',
          `payment ${payment.paymentId} (${intent.kind}) is captured but nothing was granted`,
          [payment.captures[0]!],
          [intent.ownerId],
        );
      }
    }
    for (const [spendId, spend] of this.spends) {
      let unlocked = false;
      for (const unlock of unlocksBy.get(spendId) ?? []) {
        if (unlock.via !== 'credit' || !isResultStream(unlock.ref.streamName, spend.trackId)) continue;
        paid.add(unlock.ref.id);
        unlocked = true;
      }
      if (!unlocked) {
        this.violation(
          'spend.no-unlock',
          `credit ${spendId} was spent on ${spend.trackId}, which it did not unlock`,
          [spend.ref],
          [spend.userId],
        );
      }
    }
    for (const unlock of this.unlocks) {
      if (!paid.has(unlock.ref.id)) {
        this.violation(
          'unlock.unpaid',
          `${unlock.ref.streamName} unlocked by ${unlock.via} ${unlock.causationId}, which paid for no such result`,
          [unlock.ref],
          [unlock.userId],
        );
      }
    }

    for (const payment of this.payments.values()) {
      for (const [captureId, anomaly] of payment.anomalies) {
        if (anomaly.resolution) continue;
        this.violation(
          'payment.anomaly',
          `payment ${payment.paymentId}: ${anomaly.kind} (capture ${captureId}) awaits an operator: ` +
            `npm run billing -- anomaly grant|refund ${payment.paymentId} ${captureId}`,
          [anomaly.ref],
          [payment.intent?.ownerId],
        );
      }
    }
    if (this.liveSeen) {
      for (const capture of this.sandboxCaptures) {
        this.violation(
          'payment.sandbox-beside-live',
          `payment ${capture.paymentId} was paid in the built-in sandbox (no money) on a ledger with live payments`,
          [capture.ref],
          [capture.owner],
        );
      }
    }

    const account = this.options.account;
    const at = this.options.to ?? this.options.now ?? new Date().toISOString();
    const packsOf = new Map<string, PackTally[]>(); // by `userId|service`, the key of `counts`
    for (const pack of (this.packsAtTo ?? this.packs).values()) {
      const key = `${pack.userId}|${pack.service}`;
      const list = packsOf.get(key);
      if (list) list.push(pack);
      else packsOf.set(key, [pack]);
    }
    const balances: BalanceRow[] = [];
    for (const [key, counts] of this.counts) {
      const [userId, service] = key.split('|') as [string, BillingService];
      if (account && userId !== account) continue;
      let held = 0;
      let usable = 0;
      for (const pack of packsOf.get(key) ?? []) {
        const left = pack.credits - pack.used - pack.removed;
        held += left;
        if (pack.startDate <= at && at < pack.endDate) usable += Math.max(0, left);
      }
      balances.push({ userId, service, ...counts, held, usable });
    }
    // The order of `localeCompare` (the default collation), with one collator instead of one per comparison.
    const { compare } = new Intl.Collator();
    balances.sort((a, b) => compare(a.userId, b.userId) || compare(a.service, b.service));

    const revenue = [...this.revenue.values()];
    revenue.sort((a, b) => compare(a.currency, b.currency) || compare(a.provider, b.provider));

    return {
      events: this.replayed,
      payments: this.payments.size,
      accounts: this.accountPacks.size,
      violations: account ? this.violations.filter((v) => v.accounts.includes(account)) : [...this.violations],
      revenue,
      balances,
      balancesAt: at,
    };
  }
}
