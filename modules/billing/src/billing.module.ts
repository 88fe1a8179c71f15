import { type DynamicModule, Module } from '@nestjs/common';
import { BILLING_OPTIONS, type BillingOptions, providerMode } from './application/billing-options';
import { BillingReactions } from './application/billing-reactions';
import { CancelPaymentController } from './application/cancel-payment/cancel-payment.controller';
import { CancelPaymentService } from './application/cancel-payment/cancel-payment.service';
import { CancelRenewalController } from './application/cancel-renewal/cancel-renewal.controller';
import { CapturePayPalController } from './application/capture-paypal/capture-paypal.controller';
import { CapturePayPalService } from './application/capture-paypal/capture-paypal.service';
import { CatalogueService } from './application/catalogue/catalogue.service';
import { PlansController } from './application/catalogue/plans.controller';
import { CreatePaymentController } from './application/create-payment/create-payment.controller';
import { CreatePaymentService } from './application/create-payment/create-payment.service';
import { CreditExpiry } from './application/credits/credit-expiry';
import { CurrentSubscriptionController } from './application/current-subscription/current-subscription.controller';
import { Grants } from './application/grants';
import { Anomalies } from './application/refund/anomalies';
import { Refunds } from './application/refund/refunds';
import { CreditCommands, Ledger, PaymentCommands } from './application/ledger';
import { PaymentConfigController } from './application/payment-config/payment-config.controller';
import { PaymentHistoryController } from './application/payment-history/payment-history.controller';
import { PaymentStatusController } from './application/payment-status/payment-status.controller';
import { PaymentStatusService } from './application/payment-status/payment-status.service';
import { PaymentRecords } from './application/payments/payment-records';
import { PaymentRefresh } from './application/payments/payment-refresh';
import { PaymentReconciler } from './application/payments/reconciler';
import { ProviderCallbacksService } from './application/provider-callbacks/provider-callbacks.service';
import { WebhooksController } from './application/provider-callbacks/webhooks.controller';
import { SubscribeController } from './application/subscribe/subscribe.controller';
import { UnlockTargets } from './application/targets';
import { UnlockController } from './application/unlock/unlock.controller';
import { UsageHistoryController } from './application/usage-history/usage-history.controller';
import { OffOrangeMoneyGateway, OffPayPalGateway } from './providers/off-gateways';
import { OrangeMoneyGateway, PayPalGateway } from './providers/port';
import { PaymentSandbox } from './providers/sandbox/payment-sandbox';
import { SandboxOrangeMoneyGateway, SandboxPayPalGateway } from './providers/sandbox/sandbox-gateways';
import { SandboxController } from './providers/sandbox/sandbox.controller';
import { OrangeMoneyRestGateway } from './providers/rest/orange-money-rest';
import { PayPalRestGateway } from './providers/rest/paypal-rest';

const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/**
 * Plans and packs, the credits ledger (`credits-{userId}`), payments (`payment-{paymentId}`) through PayPal and
 * Orange Money, unlocks. The providers sit behind `PayPalGateway` and `OrangeMoneyGateway`; with no provider
 * configured both are the built-in sandbox, whose pages this module serves under `/sandbox`; a provider turned off
 * (`off`) is offered nowhere.
 */
@Module({})
export class BillingModule {
  static forRoot(options: BillingOptions): DynamicModule {
    const timeoutMs = options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
    const paypal = options.paypal;
    const orangeMoney = options.orangeMoney;
    const sandbox = !paypal && !orangeMoney;
    return {
      module: BillingModule,
      // One controller per use case, in the order the routes were first published (the OpenAPI document keeps it).
      controllers: [
        PlansController,
        CurrentSubscriptionController,
        SubscribeController,
        CancelRenewalController,
        UsageHistoryController,
        PaymentConfigController,
        CreatePaymentController,
        PaymentStatusController,
        CapturePayPalController,
        CancelPaymentController,
        PaymentHistoryController,
        WebhooksController,
        UnlockController,
        // The sandbox's pages, only while no provider is live (beside a live one it would give away what it sells).
        ...(sandbox ? [SandboxController] : []),
      ],
      providers: [
        { provide: BILLING_OPTIONS, useValue: options },
        CatalogueService,
        CreditCommands,
        PaymentCommands,
        Ledger,
        Grants,
        UnlockTargets,
        PaymentRecords,
        PaymentRefresh,
        CreatePaymentService,
        CapturePayPalService,
        PaymentStatusService,
        CancelPaymentService,
        ProviderCallbacksService,
        PaymentReconciler,
        CreditExpiry,
        Refunds,
        Anomalies,
        BillingReactions,
        PaymentSandbox,
        paypal
          ? { provide: PayPalGateway, useValue: new PayPalRestGateway({ ...paypal, timeoutMs }) }
          : providerMode(options, 'PAYPAL') === 'sandbox'
            ? { provide: PayPalGateway, useClass: SandboxPayPalGateway }
            : { provide: PayPalGateway, useValue: new OffPayPalGateway() },
        orangeMoney
          ? { provide: OrangeMoneyGateway, useValue: new OrangeMoneyRestGateway({ ...orangeMoney, timeoutMs }) }
          : providerMode(options, 'ORANGE_MONEY') === 'sandbox'
            ? { provide: OrangeMoneyGateway, useClass: SandboxOrangeMoneyGateway }
            : { provide: OrangeMoneyGateway, useValue: new OffOrangeMoneyGateway() },
      ],
      exports: [PaymentSandbox, PaymentReconciler, CreditExpiry, Refunds, Anomalies, Ledger],
    };
  }
}
