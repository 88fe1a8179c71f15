import { PAYMENT_EVENT_TYPES, type PaymentDocument, type PaymentEvent } from '@kora/billing/contracts';
import { defineProjection, streamId } from '@kora/kernel';

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
