import type { UsageEntry } from '@kora/contracts';
import type {
  BillingCycle,
  BillingService,
  Money,
  PackService,
  PaymentKind,
  PaymentProvider,
  PaymentStatus,
} from './events';

/** The payment history (`payments`): one document per payment. */
export interface PaymentDocument {
  _id: string;
  userId: string;
  provider: PaymentProvider;
  providerRef: string;
  kind: PaymentKind;
  planId: string;
  planName: string;
  service: BillingService;
  trackId: string | null;
  billingCycle: BillingCycle | null;
  credits: number;
  price: Money;
  status: PaymentStatus;
  captureId: string | null;
  failure: { code: string; message: string } | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Lower-cased plan name, method and dates, for the history's search. */
  searchText: string;
}

/** A pack in the current-subscription read model. */
export interface PackEntry {
  packId: string;
  planId: string;
  planName: string;
  service: PackService;
  billingCycle: BillingCycle;
  credits: number;
  used: number;
  /** Taken back by a refund, or expired. */
  removed: number;
  startDate: string;
  endDate: string;
  renewalCancelled: boolean;
}

/** The current subscription (`credit_accounts`): one document per account that ever bought a pack. */
export interface CreditAccountDocument {
  _id: string;
  packs: PackEntry[];
  /** The earliest end date of a pack that still holds credits (the expiry's work list), or null. */
  expiresNext: string | null;
  updatedAt: string;
}

/**
 * The credit usage history (`usage_history`): one document per credit spent, the API's `UsageEntry` under the store's
 * id and with its owner.
 */
export type UsageDocument = Omit<UsageEntry, 'id'> & { _id: string; userId: string };

/** The unlocked results (`unlocked_tracks`): one document per track or mix session unlocked by a purchase. */
export interface UnlockDocument {
  _id: string;
  userId: string;
  kind: 'track' | 'mix';
  via: string;
  /** The event that paid for it (a capture or a spend). */
  causationId: string;
  unlockedAt: string;
}

export class GetPayment {
  constructor(
    readonly userId: string,
    readonly paymentId: string,
  ) {}
}

export class GetPaymentByProviderRef {
  constructor(
    readonly provider: PaymentProvider,
    readonly providerRef: string,
  ) {}
}

/** The payment a provider's capture (or transaction) id was recorded on. */
export class GetPaymentByCapture {
  constructor(
    readonly provider: PaymentProvider,
    readonly captureId: string,
  ) {}
}

export class ListPayments {
  constructor(
    readonly userId: string,
    readonly page: number,
    readonly limit: number,
    readonly search: string | null,
  ) {}
}

export interface PaymentPage {
  payments: PaymentDocument[];
  total: number;
}

/** Payments still pending that were created before `before` (the reconciler's work list). */
export class ListPendingPayments {
  constructor(
    readonly before: string,
    readonly limit: number,
  ) {}
}

/** Accounts holding credits in a pack whose end date is at or before `now` (the expiry's work list). */
export class ListExpiringCreditAccounts {
  constructor(
    readonly now: string,
    readonly limit: number,
  ) {}
}

export class GetCreditAccount {
  constructor(readonly userId: string) {}
}

export class ListUsage {
  constructor(
    readonly userId: string,
    readonly limit: number,
  ) {}
}
