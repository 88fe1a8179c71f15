import { CREDIT_EVENT_TYPES, type CreditAccountDocument, type CreditEvent } from '@kora/billing/contracts';
import { defineProjection, streamId } from '@kora/kernel';

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
