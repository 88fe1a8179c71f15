import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CreditsChangedMessage, PaymentStatus, PaymentStatusMessage } from '@kora/contracts';
import { SendNotification } from '@kora/notifications';
import { Mailer, type RecordedEvent, streamId } from '@kora/kernel';
import { ProcessorRegistry, RealtimeRegistry } from '@kora/kernel/nest';
import type {
  CreditEvent,
  Money,
  PackPurchased,
  PaymentAnomalyDetected,
  PaymentEvent,
  PaymentFailed,
} from '../contracts/events';
import { toMajor } from '../domain/catalogue';
import { declineReason } from '../domain/payment';
import { BILLING_OPTIONS, type BillingOptions } from './billing-options';
import { packPurchasedTexts, paymentFailedTexts } from './notification-texts';

/** The status each event gives a payment (an anomaly under review changes none). */
const PAYMENT_STATUS: Record<
  Exclude<PaymentEvent['type'], 'PaymentAnomalyDetected' | 'PaymentAnomalyResolved'>,
  PaymentStatus
> = {
  PaymentIntentCreated: 'pending',
  PaymentCaptured: 'paid',
  PaymentFailed: 'failed',
  PaymentCancelled: 'cancelled',
  PaymentExpired: 'expired',
  PaymentRefunded: 'refunded',
};

/**
 * `credits.changed` and `payment.status` to the owner's sockets; notifications (in both languages) for a pack bought
 * and a payment that failed, once per event.
 */
@Injectable()
export class BillingReactions implements OnModuleInit {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly mailer: Mailer,
    private readonly realtime: RealtimeRegistry,
    private readonly processors: ProcessorRegistry,
    private readonly commands: CommandBus,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  onModuleInit(): void {
    this.realtime.register(['PackPurchased', 'CreditSpent', 'CreditsExpired', 'CreditsRevoked'], (recorded) => {
      const event = recorded as RecordedEvent<CreditEvent>;
      if (event.type === 'PackRenewalCancelled') return null;
      const change = event.type === 'PackPurchased' ? event.data.credits : -(event.data.credits as number);
      return {
        userId: event.metadata.userId,
        channel: 'credits.changed',
        payload: {
          service: event.data.service,
          change,
          remaining: event.data.balance,
          reason: event.type,
        } satisfies CreditsChangedMessage,
      };
    });
    this.realtime.register(Object.keys(PAYMENT_STATUS), (recorded) => {
      const event = recorded as RecordedEvent<PaymentEvent>;
      return {
        userId: event.metadata.userId,
        channel: 'payment.status',
        payload: {
          paymentId: streamId(event.streamName),
          status: PAYMENT_STATUS[event.type as keyof typeof PAYMENT_STATUS],
          ...(event.type === 'PaymentIntentCreated'
            ? {
                provider: event.data.provider,
                kind: event.data.kind,
                trackId: event.data.trackId,
                planId: event.data.planId,
              }
            : event.type === 'PaymentFailed'
              ? { reason: declineReason(event.data.code) }
              : {}),
        } satisfies PaymentStatusMessage,
      };
    });
    if (!this.options.processors) return;
    this.processors.register({
      name: 'billing-anomalies',
      handles: ['PaymentAnomalyDetected'],
      handle: (recorded) => this.alertOperators(recorded as RecordedEvent<PaymentAnomalyDetected>),
    });
    this.processors.register({
      name: 'billing-notifications',
      handles: ['PackPurchased', 'PaymentFailed'],
      handle: (recorded) => this.notify(recorded as RecordedEvent<PackPurchased | PaymentFailed>),
    });
  }

  /**
   * Money that does not match its sale waits for an operator: an error in the log (always) and a mail to
   * `BILLING_OPERATOR_EMAIL` when it is set.
   */
  private async alertOperators(event: RecordedEvent<PaymentAnomalyDetected>): Promise<void> {
    const d = event.data;
    const paymentId = streamId(event.streamName);
    const show = (money: Money | null): string =>
      money ? `${toMajor(money.amount, money.currency)} ${money.currency}` : 'no amount';
    const text =
      `Payment ${paymentId} (user ${event.metadata.userId}): ${d.kind}.\n` +
      `The provider reported ${show(d.reported)} (capture ${d.captureId}, order ${d.providerRef ?? 'not named'}, ` +
      `via ${d.source}); the sale was ${show(d.expected)}; the payment was ${d.statusBefore}.\n` +
      `Nothing was granted. Check it at the provider, then either:\n` +
      `  npm run billing -- anomaly grant ${paymentId} ${d.captureId}\n` +
      `  npm run billing -- anomaly refund ${paymentId} ${d.captureId} --refund-id <the provider's refund id>\n`;
    this.logger.error(`payment anomaly: ${text.replace(/\n/g, ' ')}`);
    if (!this.options.operatorEmail) return;
    await this.mailer.send({
      to: this.options.operatorEmail,
      subject: `[Kora] Payment anomaly: ${d.kind} on ${paymentId}`,
      text,
      language: 'en',
      template: 'payment-anomaly',
    });
  }

  private async notify(event: RecordedEvent<PackPurchased | PaymentFailed>): Promise<void> {
    const { title, message } =
      event.type === 'PackPurchased' ? packPurchasedTexts(event.data) : paymentFailedTexts(event.data.code);
    await this.commands.execute(new SendNotification(event.metadata.userId, 'PAYMENT', title, message, null, event.id));
  }
}
