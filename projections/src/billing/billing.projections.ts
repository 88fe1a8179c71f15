import { type TrackEvent } from '@kora/audio/contracts';
import {
  CREDIT_EVENT_TYPES,
  type CreditAccountDocument,
  type CreditEvent,
  PAYMENT_EVENT_TYPES,
  type PaymentDocument,
  type PaymentEvent,
  type UnlockDocument,
  type UsageDocument,
} from '@kora/billing/contracts';
import { defineProjection, streamId } from '@kora/kernel';
import type { MixEvent } from '@kora/mixing/contracts';

const METHOD_WORDS = { PAYPAL: 'paypal', ORANGE_MONEY: 'orange money mobile money' } as const;

/** The payment history: one document per payment, its status following the payment's events. */
export const paymentsProjection = defineProjection<PaymentEvent, PaymentDocument>({
  name: 'payments',
  version: 1,
  collection: 'payments',
  indexes: [
    { fields: { userId: 1, createdAt: -1 } },
    { fields: { provider: 1, providerRef: 1 } },
    { fields: { provider: 1, captureId: 1 } },
    { fields: { status: 1, createdAt: 1 } },
  ],
  handles: PAYMENT_EVENT_TYPES,
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    const at = event.metadata.occurredAt;
    if (event.type === 'PaymentIntentCreated') {
      const d = event.data;
      return {
        _id: d.paymentId,
        userId: d.ownerId,
        provider: d.provider,
        providerRef: d.providerRef,
        kind: d.kind,
        planId: d.planId,
        planName: d.planName,
        service: d.service,
        trackId: d.trackId,
        billingCycle: d.billingCycle,
        credits: d.credits,
        price: d.price,
        status: 'pending',
        captureId: null,
        failure: null,
        expiresAt: d.expiresAt,
        createdAt: at,
        updatedAt: at,
        searchText: `${d.planName} ${METHOD_WORDS[d.provider]} ${at.slice(0, 10)} ${d.service}`.toLowerCase(),
      };
    }
    if (!current) return null;
    switch (event.type) {
      case 'PaymentCaptured':
        return { ...current, status: 'paid', captureId: event.data.captureId, updatedAt: at };
      case 'PaymentFailed':
        return {
          ...current,
          status: 'failed',
          failure: { code: event.data.code, message: event.data.message },
          updatedAt: at,
        };
      case 'PaymentCancelled':
        return { ...current, status: 'cancelled', updatedAt: at };
      case 'PaymentExpired':
        return { ...current, status: 'expired', updatedAt: at };
      case 'PaymentRefunded':
        return { ...current, status: 'refunded', updatedAt: at };
      case 'PaymentAnomalyDetected':
      case 'PaymentAnomalyResolved':
        // Money under an operator's review changes nothing the payer sees until it is granted or refunded.
        return current;
    }
  },
});

/** The current subscription: every pack an account bought, with what is used, expired or taken back. */
export const creditAccountsProjection = defineProjection<CreditEvent, CreditAccountDocument>({
  name: 'credit-accounts',
  version: 2,
  collection: 'credit_accounts',
  indexes: [{ fields: { expiresNext: 1 } }],
  handles: CREDIT_EVENT_TYPES,
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    const next = creditAccountAfter(current, event);
    return { ...next, expiresNext: expiresNext(next.packs) };
  },
});

/** The earliest end date of a pack that still holds credits. */
function expiresNext(packs: CreditAccountDocument['packs']): string | null {
  let earliest: string | null = null;
  for (const pack of packs) {
    if (pack.credits - pack.used - pack.removed > 0 && (earliest === null || pack.endDate < earliest)) {
      earliest = pack.endDate;
    }
  }
  return earliest;
}

function creditAccountAfter(
  current: CreditAccountDocument | null,
  event: Parameters<(typeof creditAccountsProjection)['evolve']>[1],
): CreditAccountDocument {
  const at = event.metadata.occurredAt;
  const doc: CreditAccountDocument = current ?? {
    _id: streamId(event.streamName),
    packs: [],
    expiresNext: null,
    updatedAt: at,
  };
  const packs = doc.packs;
  switch (event.type) {
    case 'PackPurchased': {
      const d = event.data;
      return {
        ...doc,
        packs: [
          ...packs,
          {
            packId: d.packId,
            planId: d.planId,
            planName: d.planName,
            service: d.service,
            billingCycle: d.billingCycle,
            credits: d.credits,
            used: 0,
            removed: 0,
            startDate: d.startDate,
            endDate: d.endDate,
            renewalCancelled: false,
          },
        ],
        updatedAt: at,
      };
    }
    case 'CreditSpent':
      return {
        ...doc,
        packs: packs.map((p) => (p.packId === event.data.packId ? { ...p, used: p.used + event.data.credits } : p)),
        updatedAt: at,
      };
    case 'PackRenewalCancelled':
      return {
        ...doc,
        packs: packs.map((p) => (event.data.packIds.includes(p.packId) ? { ...p, renewalCancelled: true } : p)),
        updatedAt: at,
      };
    case 'CreditsExpired':
    case 'CreditsRevoked':
      return {
        ...doc,
        packs: packs.map((p) =>
          p.packId === event.data.packId ? { ...p, removed: p.removed + event.data.credits } : p,
        ),
        updatedAt: at,
      };
  }
}

/** The credit usage history: one document per credit spent. */
export const usageHistoryProjection = defineProjection<CreditEvent, UsageDocument>({
  name: 'usage-history',
  version: 1,
  collection: 'usage_history',
  indexes: [{ fields: { userId: 1, date: -1 } }],
  handles: ['CreditSpent'],
  target: (event) => (event.type === 'CreditSpent' ? { id: event.data.spendId } : null),
  evolve(_current, event) {
    if (event.type !== 'CreditSpent') return null;
    return {
      _id: event.data.spendId,
      userId: streamId(event.streamName),
      date: event.metadata.occurredAt,
      trackId: event.data.trackId,
      trackName: event.data.trackName,
      serviceType: event.data.service,
      trackDuration: event.data.trackDuration,
      creditsUsed: event.data.credits,
    };
  },
});

/** The results unlocked: tracks and mix sessions, with what paid for them. */
export const unlockedTracksProjection = defineProjection<TrackEvent | MixEvent, UnlockDocument>({
  name: 'unlocked-tracks',
  version: 1,
  collection: 'unlocked_tracks',
  indexes: [{ fields: { userId: 1, unlockedAt: -1 } }],
  handles: ['TrackUnlocked', 'MixUnlocked', 'TrackDeleted'],
  target: (event) => ({ id: streamId(event.streamName) }),
  evolve(current, event) {
    if (event.type === 'TrackDeleted') return null;
    if (event.type !== 'TrackUnlocked' && event.type !== 'MixUnlocked') return current;
    return {
      _id: streamId(event.streamName),
      userId: event.metadata.userId,
      kind: event.type === 'TrackUnlocked' ? 'track' : 'mix',
      via: event.data.via,
      causationId: event.metadata.causationId,
      unlockedAt: event.metadata.occurredAt,
    };
  },
});
