import type { CreditEvent, UsageDocument } from '@kora/billing/contracts';
import { defineProjection, streamId } from '@kora/kernel';

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
