import type { Intent, IntentRequest, Unchecked } from '@kora/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
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
import { packCredits, packPrice, PAY_PER_TRACK, toMajor, toMinor } from '../../domain/catalogue';
import {
  AlreadyUnlockedError,
  AmountMismatchError,
  CurrencyNotSupportedError,
  PlanMismatchError,
  PlanNotPurchasableError,
  ProviderNotOfferedError,
  ProviderUnavailableError,
  ServiceMismatchError,
  UnknownPlanError,
} from '../../domain/errors';
import { PAYPAL_APPROVAL_WINDOW_MS } from '../../domain/payment';
import { OrangeMoneyGateway, PayPalGateway, ProviderRefusal, ProviderUnavailable } from '../../providers/port';
import { BILLING_OPTIONS, type BillingOptions, providerMode } from '../billing-options';
import { CatalogueService } from '../catalogue/catalogue.service';
import { Ledger } from '../ledger';
import { UnlockTargets } from '../targets';

/** The contract's `IntentRequest` as it arrives: nothing in it is trusted before it is checked. */
export type IntentBody = Unchecked<IntentRequest> & { amount?: unknown };

const PACK_TYPES = ['PACK', 'SUBSCRIPTION', 'PLAN'];
const TRACK_TYPES = ['TRACK', 'SINGLE', 'SINGLE_TRACK', 'PAYNGO', 'PAY_PER_TRACK', 'ONE_TIME'];

const upper = (value: unknown): string | null => (typeof value === 'string' ? value.trim().toUpperCase() : null);

/** Opens a payment: an intent priced by the server from the catalogue and opened at the provider. */
@Injectable()
export class CreatePaymentService {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly ledger: Ledger,
    private readonly catalogue: CatalogueService,
    private readonly targets: UnlockTargets,
    private readonly paypal: PayPalGateway,
    private readonly orangeMoney: OrangeMoneyGateway,
    private readonly contexts: CommandContexts,
    @Inject(IDS) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  /** Prices the purchase from the catalogue; refuses (400, nothing recorded) whatever the client said that differs. */
  async createIntent(userId: string, body: IntentBody): Promise<Intent> {
    const provider = upper(body?.provider) as PaymentProvider | null;
    if (!provider || !PROVIDERS.includes(provider)) {
      throw new ValidationFailedError({ provider: 'BILLING.INVALID_PROVIDER' });
    }
    if (providerMode(this.options, provider) === 'off') throw new ProviderNotOfferedError(provider);
    const currency = upper(body.currency) as Currency | null;
    if (!currency || !CURRENCIES.includes(currency)) {
      throw new ValidationFailedError({ currency: 'BILLING.INVALID_CURRENCY' });
    }
    if (provider === 'ORANGE_MONEY' && currency !== 'XOF') {
      throw new CurrencyNotSupportedError('Orange Money takes payments in XOF only.');
    }
    if (provider === 'PAYPAL' && currency === 'XOF') {
      throw new CurrencyNotSupportedError('PayPal does not take payments in XOF.');
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
          ? new PlanNotPurchasableError(PAY_PER_TRACK)
          : new UnknownPlanError();
      }
      if (requestedService && requestedService !== pack.serviceType) {
        throw new PlanMismatchError('This plan is not a pack of that service.');
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
        throw new ServiceMismatchError();
      }
      const plan = this.catalogue.payPerTrack(target.service);
      if (planId && planId !== plan.id) {
        throw new PlanMismatchError(`Pay for one result with the ${PAY_PER_TRACK} plan.`);
      }
      if (target.unlocked) throw new AlreadyUnlockedError();
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
        throw new AmountMismatchError(toMajor(priced.price.amount, currency), currency);
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
      mode: (providerMode(this.options, provider) === 'live' ? 'live' : 'sandbox') as 'live' | 'sandbox',
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
        const expiresAt = new Date(this.clock.now().getTime() + PAYPAL_APPROVAL_WINDOW_MS).toISOString();
        await this.record(paymentId, { ...base, providerRef: order.id, expiresAt }, context);
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
        throw new ProviderUnavailableError();
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
}
