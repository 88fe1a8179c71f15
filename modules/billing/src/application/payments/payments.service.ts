import { Inject, Injectable, Logger } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, type Clock, IDS, type IdGenerator, ValidationFailedError } from '@kora/kernel';
import { CommandContexts } from '@kora/kernel/nest';
import {
  type BillingCycle,
  type BillingService,
  CURRENCIES,
  type Currency,
  type Money,
  type PaymentIntentCreated,
  type PaymentKind,
  type PaymentProvider,
  PROVIDERS,
} from '../../contracts/events';
import { GetPaymentByProviderRef, type PaymentDocument } from '../../contracts/queries';
import { packCredits, packPrice, PAY_PER_TRACK, toMajor, toMinor } from '../../domain/catalogue';
import { BillingError, paymentNotFound, providerUnavailable } from '../../domain/errors';
import type { PaymentState } from '../../domain/payment';
import {
  OrangeMoneyGateway,
  type OrangeMoneyTransaction,
  PayPalGateway,
  type PayPalOrder,
  ProviderRefusal,
  ProviderUnavailable,
} from '../../providers/port';
import { BILLING_OPTIONS, type BillingOptions } from '../billing-options';
import { CatalogueService } from '../catalogue/catalogue.service';
import { Grants } from '../grants';
import { Ledger } from '../ledger';
import { UnlockTargets } from '../targets';

export interface IntentRequest {
  amount?: unknown;
  currency?: unknown;
  provider?: unknown;
  trackId?: unknown;
  service?: unknown;
  paymentType?: unknown;
  planId?: unknown;
  billingCycle?: unknown;
}

export type IntentAnswer =
  | {
      success: true;
      paymentId: string;
      provider: 'PAYPAL';
      orderId: string;
      approveUrl: string | null;
      amount: number;
      currency: Currency;
      status: 'pending';
    }
  | {
      success: true;
      paymentId: string;
      provider: 'ORANGE_MONEY';
      validity: number;
      merchantCode: string;
      qrCode: string;
      deepLinks: { OM: string; MAXIT: string };
      amount: number;
      currency: Currency;
      status: 'pending';
    };

const PACK_TYPES = ['PACK', 'SUBSCRIPTION', 'PLAN'];
const TRACK_TYPES = ['TRACK', 'SINGLE', 'SINGLE_TRACK', 'PAYNGO', 'PAY_PER_TRACK', 'ONE_TIME'];

const upper = (value: unknown): string | null => (typeof value === 'string' ? value.trim().toUpperCase() : null);

/** PayPal's decimal amount to minor units. */
function paypalMoney(amount: { currency_code: string; value: string }): Money {
  const currency = amount.currency_code as Currency;
  return { amount: toMinor(amount.value, currency) ?? Math.round(Number(amount.value) * 100), currency };
}

/**
 * Payments: an intent priced by the server from the catalogue and opened at the provider, then its capture however it
 * is reported (our capture call, a verified callback, the status poll, the reconciler), recorded once and granted once.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly ledger: Ledger,
    private readonly grants: Grants,
    private readonly catalogue: CatalogueService,
    private readonly targets: UnlockTargets,
    private readonly paypal: PayPalGateway,
    private readonly orangeMoney: OrangeMoneyGateway,
    private readonly queries: QueryBus,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  /** Prices the purchase from the catalogue; refuses (400, nothing recorded) whatever the client said that differs. */
  async createIntent(userId: string, body: IntentRequest): Promise<IntentAnswer> {
    const provider = upper(body?.provider) as PaymentProvider | null;
    if (!provider || !PROVIDERS.includes(provider)) {
      throw new ValidationFailedError({ provider: 'BILLING.INVALID_PROVIDER' });
    }
    const currency = upper(body.currency) as Currency | null;
    if (!currency || !CURRENCIES.includes(currency)) {
      throw new ValidationFailedError({ currency: 'BILLING.INVALID_CURRENCY' });
    }
    if (provider === 'ORANGE_MONEY' && currency !== 'XOF') {
      throw new BillingError('BILLING.CURRENCY_NOT_SUPPORTED', 'Orange Money takes payments in XOF only.', 'invalid');
    }
    if (provider === 'PAYPAL' && currency === 'XOF') {
      throw new BillingError('BILLING.CURRENCY_NOT_SUPPORTED', 'PayPal does not take payments in XOF.', 'invalid');
    }
    const planId = typeof body.planId === 'string' && body.planId.trim() ? body.planId.trim() : null;
    const type = upper(body.paymentType);
    if (type && !PACK_TYPES.includes(type) && !TRACK_TYPES.includes(type)) {
      throw new ValidationFailedError({ paymentType: 'BILLING.INVALID_PAYMENT_TYPE' });
    }
    const kind: PaymentKind =
      type && PACK_TYPES.includes(type)
        ? 'PACK'
        : type && TRACK_TYPES.includes(type)
          ? 'TRACK'
          : planId && this.catalogue.pack(planId)
            ? 'PACK'
            : 'TRACK';
    const requestedService = upper(body.service);

    let priced: {
      price: Money;
      planId: string;
      planName: string;
      service: BillingService;
      trackId: string | null;
      cycle: BillingCycle | null;
      credits: number;
    };
    if (kind === 'PACK') {
      const pack = planId ? this.catalogue.pack(planId) : undefined;
      if (!pack) {
        throw planId && this.catalogue.isPayPerTrack(planId)
          ? new BillingError('BILLING.PLAN_NOT_PURCHASABLE', `${PAY_PER_TRACK} cannot be bought as a pack.`, 'invalid')
          : new BillingError('BILLING.UNKNOWN_PLAN', 'This plan does not exist.', 'invalid');
      }
      if (requestedService && requestedService !== pack.serviceType) {
        throw new BillingError('BILLING.PLAN_MISMATCH', 'This plan is not a pack of that service.', 'invalid');
      }
      const cycleText = upper(body.billingCycle) ?? 'MONTHLY';
      if (cycleText !== 'MONTHLY' && cycleText !== 'YEARLY') {
        throw new ValidationFailedError({ billingCycle: 'BILLING.INVALID_BILLING_CYCLE' });
      }
      const cycle = cycleText as BillingCycle;
      priced = {
        price: packPrice(this.catalogue.catalogue, pack, cycle, currency),
        planId: pack.id,
        planName: pack.name,
        service: pack.serviceType,
        trackId: null,
        cycle,
        credits: packCredits(pack, cycle),
      };
    } else {
      const trackId = typeof body.trackId === 'string' && body.trackId.trim() ? body.trackId.trim() : null;
      if (!trackId) throw new ValidationFailedError({ trackId: 'BILLING.TRACK_REQUIRED' });
      const target = await this.targets.require(userId, trackId);
      if (requestedService && requestedService !== target.service) {
        throw new BillingError('BILLING.SERVICE_MISMATCH', 'This track was not processed by that service.', 'invalid');
      }
      const plan = this.catalogue.payPerTrack(target.service);
      if (planId && planId !== plan.id) {
        throw new BillingError(
          'BILLING.PLAN_MISMATCH',
          `Pay for one result with the ${PAY_PER_TRACK} plan.`,
          'invalid',
        );
      }
      if (target.unlocked)
        throw new BillingError('BILLING.ALREADY_UNLOCKED', 'This result is already unlocked.', 'conflict');
      priced = {
        price: { amount: plan.prices[currency], currency },
        planId: plan.id,
        planName: PAY_PER_TRACK,
        service: target.service,
        trackId,
        cycle: null,
        credits: 0,
      };
    }
    if (body.amount !== undefined && body.amount !== null) {
      if (toMinor(body.amount, currency) !== priced.price.amount) {
        throw new BillingError('BILLING.AMOUNT_MISMATCH', 'The amount does not match the price.', 'invalid', {
          expected: toMajor(priced.price.amount, currency),
          currency,
        });
      }
    }

    const paymentId = this.ids.newId();
    const major = toMajor(priced.price.amount, currency);
    const description = `Kora ${priced.planName} (${priced.service})`;
    const base = {
      paymentId,
      ownerId: userId,
      provider,
      kind,
      planId: priced.planId,
      planName: priced.planName,
      service: priced.service,
      trackId: priced.trackId,
      billingCycle: priced.cycle,
      credits: priced.credits,
      price: priced.price,
      catalogueVersion: this.catalogue.catalogue.version,
    };
    const context = this.contexts.forUser(userId);
    try {
      if (provider === 'PAYPAL') {
        const order = await this.paypal.createOrder({
          requestId: paymentId,
          customId: paymentId,
          description,
          amount: { currency_code: currency, value: major.toFixed(2) },
          returnUrl: `${this.options.publicUrl}/payment/success`,
          cancelUrl: `${this.options.publicUrl}/payment/cancel`,
        });
        await this.record(paymentId, { ...base, providerRef: order.id, expiresAt: null }, context);
        return {
          success: true,
          paymentId,
          provider,
          orderId: order.id,
          approveUrl: order.links.find((link) => link.rel === 'approve' || link.rel === 'payer-action')?.href ?? null,
          amount: major,
          currency,
          status: 'pending',
        };
      }
      const validity = this.options.orangeMoneyValidity;
      const qr = await this.orangeMoney.createQrCode({
        reference: paymentId,
        amount: { unit: 'XOF', value: priced.price.amount },
        name: 'Kora',
        validity,
        callbackSuccessUrl: `${this.options.publicUrl}/payment/success`,
        callbackCancelUrl: `${this.options.publicUrl}/payment/cancel`,
      });
      const expiresAt = new Date(this.clock.now().getTime() + qr.validity * 1000).toISOString();
      await this.record(paymentId, { ...base, providerRef: qr.qrId, expiresAt }, context);
      return {
        success: true,
        paymentId,
        provider,
        validity: qr.validity,
        merchantCode: this.orangeMoney.merchantCode,
        qrCode: qr.qrCode,
        deepLinks: qr.deepLinks,
        amount: major,
        currency,
        status: 'pending',
      };
    } catch (error) {
      if (error instanceof ProviderUnavailable || error instanceof ProviderRefusal) {
        this.logger.warn(`payment provider refused an intent: ${error.message}`);
        throw providerUnavailable();
      }
      throw error;
    }
  }

  private async record(
    paymentId: string,
    intent: PaymentIntentCreated['data'],
    context: ReturnType<CommandContexts['forUser']>,
  ) {
    await this.ledger.payment(paymentId, { type: 'CreateIntent', intent }, context);
  }

  /** The user's payment by our id or the provider's (an order id, a QR id); another user's is a 404. */
  async owned(userId: string, id: string): Promise<{ paymentId: string; state: PaymentState }> {
    let state = await this.ledger.paymentState(id);
    let paymentId = id;
    if (!state.intent) {
      for (const provider of PROVIDERS) {
        const doc = await this.queries.execute<GetPaymentByProviderRef, PaymentDocument | null>(
          new GetPaymentByProviderRef(provider, id),
        );
        if (doc) {
          paymentId = doc._id;
          state = await this.ledger.paymentState(doc._id);
          break;
        }
      }
    }
    if (!state.intent || state.intent.ownerId !== userId) throw paymentNotFound();
    return { paymentId, state };
  }

  /** Records the provider's capture (once) and grants it (once). */
  async recordCapture(
    paymentId: string,
    ownerId: string,
    captureId: string,
    amount: Money,
    source: 'capture' | 'callback' | 'reconciler' | 'status',
  ): Promise<void> {
    await this.ledger.payment(
      paymentId,
      { type: 'RecordCapture', captureId, amount, source },
      this.contexts.forSystem(ownerId, paymentId),
    );
    await this.grants.grantPayment(paymentId);
  }

  private async recordFailure(paymentId: string, ownerId: string, code: string, message: string): Promise<void> {
    await this.ledger.payment(
      paymentId,
      { type: 'RecordFailure', code, message },
      this.contexts.forSystem(ownerId, paymentId),
    );
  }

  private completedCapture(order: PayPalOrder) {
    return order.purchase_units.flatMap((unit) => unit.payments?.captures ?? []).find((c) => c.status === 'COMPLETED');
  }

  /** Captures an approved PayPal order; a repeat answers the first capture and grants nothing more. */
  async capturePayPal(
    paymentId: string,
    state: PaymentState,
    source: 'capture' | 'callback' | 'reconciler',
  ): Promise<{ success: boolean; message: string; status: string }> {
    const intent = state.intent!;
    if (state.status === 'paid' || state.status === 'refunded') {
      await this.grants.grantPayment(paymentId);
      return { success: true, message: 'Payment already captured', status: state.status };
    }
    if (state.status !== 'pending') {
      throw new BillingError('BILLING.PAYMENT_CLOSED', `This payment is ${state.status}.`, 'conflict', {
        status: state.status,
      });
    }
    let order: PayPalOrder;
    try {
      order = await this.paypal.captureOrder(intent.providerRef, paymentId);
      // Tests only: die exactly between the provider's capture and our append (the reconciler's case).
      if (this.options.crashAfterCapture) process.kill(process.pid, 'SIGKILL');
    } catch (error) {
      if (error instanceof ProviderRefusal && error.issue === 'ORDER_ALREADY_CAPTURED') {
        order = await this.paypal.getOrder(intent.providerRef).catch(() => {
          throw providerUnavailable();
        });
      } else if (error instanceof ProviderRefusal && error.final) {
        await this.recordFailure(paymentId, intent.ownerId, `PAYPAL.${error.issue}`, error.message);
        throw new BillingError(
          'BILLING.PAYMENT_DECLINED',
          'The payment was declined. Please try another way to pay.',
          'payment_required',
          {
            issue: error.issue,
          },
        );
      } else if (error instanceof ProviderRefusal) {
        throw new BillingError('BILLING.PAYMENT_NOT_APPROVED', 'The payment has not been approved yet.', 'conflict', {
          issue: error.issue,
        });
      } else if (error instanceof ProviderUnavailable) {
        throw providerUnavailable();
      } else throw error;
    }
    const capture = this.completedCapture(order);
    if (!capture)
      throw new BillingError('BILLING.PAYMENT_NOT_CAPTURED', 'The payment is not captured yet.', 'conflict');
    await this.recordCapture(paymentId, intent.ownerId, capture.id, paypalMoney(capture.amount), source);
    return { success: true, message: 'Payment captured', status: 'paid' };
  }

  /** Applies what Orange Money says about a payment (callback, status poll, reconciler). */
  async applyOrangeMoney(
    paymentId: string,
    state: PaymentState,
    transaction: OrangeMoneyTransaction,
    source: 'callback' | 'reconciler' | 'status',
  ): Promise<void> {
    const ownerId = state.intent!.ownerId;
    const context = this.contexts.forSystem(ownerId, paymentId);
    switch (transaction.status) {
      case 'SUCCESS':
        await this.recordCapture(
          paymentId,
          ownerId,
          transaction.transactionId ?? transaction.reference,
          { amount: transaction.amount.value, currency: 'XOF' },
          source,
        );
        return;
      case 'FAILED':
        await this.recordFailure(paymentId, ownerId, 'ORANGE_MONEY.FAILED', 'The Orange Money payment failed.');
        return;
      case 'CANCELLED':
        if (state.status === 'pending')
          await this.ledger.payment(paymentId, { type: 'Cancel', by: 'provider' }, context);
        return;
      case 'EXPIRED':
        await this.ledger.payment(paymentId, { type: 'Expire' }, context);
        return;
      default: {
        // Nobody paid (Orange Money reports no transaction) and the QR code's validity has passed: it expired.
        const expiresAt = state.intent!.expiresAt;
        if (
          transaction.status === 'INITIATED' &&
          source !== 'callback' &&
          expiresAt &&
          expiresAt <= this.clock.now().toISOString()
        ) {
          await this.ledger.payment(paymentId, { type: 'Expire' }, context);
        }
        return;
      }
    }
  }

  /** The payment's status; a pending one is asked of the provider first (a lost callback cannot keep it pending). */
  async status(userId: string, id: string): Promise<{ status: string; paymentStatus: string; paymentId: string }> {
    const { paymentId, state } = await this.owned(userId, id);
    let current = state;
    if (state.status === 'pending') {
      try {
        await this.refresh(paymentId, state, 'status');
        current = await this.ledger.paymentState(paymentId);
      } catch (error) {
        if (!(
          error instanceof ProviderUnavailable ||
          error instanceof ProviderRefusal ||
          error instanceof BillingError
        ))
          throw error;
      }
    }
    const status = current.status!;
    const legacy: Record<string, string> = {
      pending: 'PENDING',
      paid: 'COMPLETED',
      failed: 'FAILED',
      cancelled: 'CANCELLED',
      expired: 'EXPIRED',
      refunded: 'REFUNDED',
    };
    return { status: legacy[status]!, paymentStatus: status, paymentId };
  }

  /** Asks the provider about a pending payment and records what it says. */
  async refresh(paymentId: string, state: PaymentState, source: 'status' | 'reconciler'): Promise<void> {
    const intent = state.intent!;
    if (intent.provider === 'ORANGE_MONEY') {
      const transaction = await this.orangeMoney.getTransaction(paymentId);
      await this.applyOrangeMoney(paymentId, state, transaction, source);
      return;
    }
    const order = await this.paypal.getOrder(intent.providerRef);
    const capture = this.completedCapture(order);
    if (order.status === 'COMPLETED' && capture) {
      await this.recordCapture(paymentId, intent.ownerId, capture.id, paypalMoney(capture.amount), source);
    } else if (order.status === 'APPROVED' && source === 'reconciler') {
      await this.capturePayPal(paymentId, state, 'reconciler'); // the payer approved; the window closed before capture
    } else if (order.status === 'VOIDED') {
      await this.ledger.payment(
        paymentId,
        { type: 'Cancel', by: 'provider' },
        this.contexts.forSystem(intent.ownerId, paymentId),
      );
    }
  }

  async cancelOrangeMoney(userId: string, id: string): Promise<{ success: boolean; status: string }> {
    const { paymentId, state } = await this.owned(userId, id);
    if (state.intent!.provider !== 'ORANGE_MONEY') throw paymentNotFound();
    // The customer may have paid a moment ago: ask first, so a paid payment is never marked cancelled.
    if (state.status === 'pending') {
      try {
        await this.refresh(paymentId, state, 'status');
      } catch (error) {
        if (!(error instanceof ProviderUnavailable || error instanceof ProviderRefusal)) throw error;
      }
    }
    const { state: after } = await this.ledger.payment(
      paymentId,
      { type: 'Cancel', by: 'user' },
      this.contexts.forUser(userId),
    );
    return { success: true, status: after.status! };
  }

  /** A verified Orange Money callback (duplicates and late ones change nothing). */
  async onOrangeMoneyCallback(transaction: OrangeMoneyTransaction): Promise<void> {
    const paymentId = transaction.metadata.reference ?? transaction.reference;
    const state = await this.ledger.paymentState(paymentId);
    if (!state.intent || state.intent.provider !== 'ORANGE_MONEY') throw paymentNotFound();
    await this.applyOrangeMoney(paymentId, state, transaction, 'callback');
  }

  /** A verified PayPal webhook: an approval is captured on the payer's behalf, a completed capture recorded. */
  async onPayPalWebhook(eventType: string, resource: Record<string, unknown>): Promise<void> {
    if (eventType === 'CHECKOUT.ORDER.APPROVED') {
      const doc = await this.queries.execute<GetPaymentByProviderRef, PaymentDocument | null>(
        new GetPaymentByProviderRef('PAYPAL', String(resource.id)),
      );
      if (!doc) return;
      const state = await this.ledger.paymentState(doc._id);
      if (state.status === 'pending') await this.capturePayPal(doc._id, state, 'callback');
      return;
    }
    if (eventType === 'PAYMENT.CAPTURE.COMPLETED' || eventType === 'PAYMENT.CAPTURE.DENIED') {
      const paymentId = typeof resource.custom_id === 'string' ? resource.custom_id : null;
      if (!paymentId) return;
      const state = await this.ledger.paymentState(paymentId);
      if (!state.intent || state.intent.provider !== 'PAYPAL') return;
      if (eventType === 'PAYMENT.CAPTURE.DENIED') {
        await this.recordFailure(paymentId, state.intent.ownerId, 'PAYPAL.CAPTURE_DENIED', 'The capture was denied.');
        return;
      }
      const amount = resource.amount as { currency_code: string; value: string };
      await this.recordCapture(paymentId, state.intent.ownerId, String(resource.id), paypalMoney(amount), 'callback');
    }
  }
}
