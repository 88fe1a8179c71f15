import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SendNotification } from '@kora/notifications';
import { type RecordedEvent, streamId } from '@kora/kernel';
import { ProcessorRegistry, RealtimeRegistry } from '@kora/kernel/nest';
import type { CreditEvent, PackPurchased, PaymentEvent, PaymentFailed } from '../contracts/events';
import { toMajor } from '../domain/catalogue';
import { BILLING_OPTIONS, type BillingOptions } from './billing-options';

const PAYMENT_STATUS: Record<PaymentEvent['type'], string> = {
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
  constructor(
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
        payload: { service: event.data.service, change, remaining: event.data.balance, reason: event.type },
      };
    });
    this.realtime.register(Object.keys(PAYMENT_STATUS), (recorded) => {
      const event = recorded as RecordedEvent<PaymentEvent>;
      return {
        userId: event.metadata.userId,
        channel: 'payment.status',
        payload: {
          paymentId: streamId(event.streamName),
          status: PAYMENT_STATUS[event.type],
          ...(event.type === 'PaymentIntentCreated'
            ? {
                provider: event.data.provider,
                kind: event.data.kind,
                trackId: event.data.trackId,
                planId: event.data.planId,
              }
            : {}),
        },
      };
    });
    if (!this.options.processors) return;
    this.processors.register({
      name: 'billing-notifications',
      handles: ['PackPurchased', 'PaymentFailed'],
      handle: (recorded) => this.notify(recorded as RecordedEvent<PackPurchased | PaymentFailed>),
    });
  }

  private async notify(event: RecordedEvent<PackPurchased | PaymentFailed>): Promise<void> {
    const userId = event.metadata.userId;
    if (event.type === 'PackPurchased') {
      const d = event.data;
      const price = `${toMajor(d.price.amount, d.price.currency)} ${d.price.currency === 'XOF' ? 'FCFA' : d.price.currency}`;
      await this.commands.execute(
        new SendNotification(
          userId,
          'PAYMENT',
          { en: 'Pack purchased', fr: 'Pack acheté' },
          {
            en: `Your ${d.planName} pack (${price}) adds ${d.credits} credits, usable until ${d.endDate.slice(0, 10)}.`,
            fr: `Votre pack ${d.planName} (${price}) ajoute ${d.credits} crédits, utilisables jusqu’au ${d.endDate.slice(0, 10)}.`,
          },
          null,
          event.id,
        ),
      );
      return;
    }
    await this.commands.execute(
      new SendNotification(
        userId,
        'PAYMENT',
        { en: 'Payment failed', fr: 'Le paiement a échoué' },
        {
          en: 'The payment could not be completed. Nothing was charged; please try again.',
          fr: 'Le paiement n’a pas pu aboutir. Rien n’a été débité ; merci de réessayer.',
        },
        null,
        event.id,
      ),
    );
  }
}
