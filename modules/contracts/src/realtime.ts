import type { BillingService, PaymentKind, PaymentProvider, PaymentStatus } from './billing';
import type { MixStatusMessage } from './mixes';
import type { AppNotification } from './notifications';
import type { TrackStatusMessage } from './tracks';

/**
 * What a message derived from a recorded event carries beside its payload: the event's global position, which the
 * client sends back as `lastPosition` when it reconnects (and as `Kora-Seen-Position` on its calls). A running job's
 * progress is not an event: it has none, and is never replayed.
 */
export interface Positioned {
  position?: number;
}

/** `credits.changed`: a pack bought (`change` > 0), a credit spent, credits expired or revoked. */
export interface CreditsChangedMessage {
  service: BillingService;
  change: number;
  /** The service's credits left after the change. */
  remaining: number;
  reason: 'PackPurchased' | 'CreditSpent' | 'CreditsExpired' | 'CreditsRevoked';
}

/** `payment.status`: every step of a payment; the intent's step says what is paid for, a failure why when known. */
export interface PaymentStatusMessage {
  paymentId: string;
  status: PaymentStatus;
  provider?: PaymentProvider;
  kind?: PaymentKind;
  trackId?: string | null;
  planId?: string;
  /** Why it failed, when the provider said (`INSUFFICIENT_BALANCE`, `INSTRUMENT_DECLINED`...). */
  reason?: string | null;
}

/** `resync`: what the client missed cannot be replayed (too many, or the replay failed); it refetches what it shows. */
export interface ResyncMessage {
  reason: 'too-far-behind' | 'replay-failed';
}

/** Every Socket.IO event the server sends, by name, with its payload (docs/api.md, "Socket.IO"). */
export interface SocketMessages {
  resync: ResyncMessage;
  /** Sent just before the server closes a socket whose session ended: go to sign-in, do not renew. */
  'session.ended': Record<string, never>;
  'track.status': TrackStatusMessage & Positioned;
  'mix.status': MixStatusMessage & Positioned;
  'notification.created': AppNotification & Positioned;
  'credits.changed': CreditsChangedMessage & Positioned;
  'payment.status': PaymentStatusMessage & Positioned;
}

export type SocketChannel = keyof SocketMessages;
