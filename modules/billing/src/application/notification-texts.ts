import { formatCount, formatDay, formatMoney, takesSingular } from '@kora/kernel';
import type { LocalisedText } from '@kora/notifications';
import type { PackPurchased } from '../contracts/events';
import { toMajor } from '../domain/catalogue';
import { declineReason } from '../domain/payment';

type Language = keyof LocalisedText;

/** A pack bought: its price, its credits and the day they end, written in each language's way. */
export function packPurchasedTexts(d: PackPurchased['data']): { title: LocalisedText; message: LocalisedText } {
  const price = (language: Language) =>
    formatMoney(toMajor(d.price.amount, d.price.currency), d.price.currency, language);
  const count = (language: Language) => formatCount(d.credits, language);
  const en = takesSingular(d.credits, 'en');
  const fr = takesSingular(d.credits, 'fr');
  return {
    title: { en: 'Pack purchased', fr: 'Pack acheté' },
    message: {
      en:
        `Your ${d.planName} pack (${price('en')}) adds ${count('en')} ${en ? 'credit' : 'credits'}, ` +
        `usable until ${formatDay(d.endDate, 'en')}.`,
      fr:
        `Votre pack ${d.planName} (${price('fr')}) ajoute ${count('fr')} ${fr ? 'crédit' : 'crédits'}, ` +
        `${fr ? 'utilisable' : 'utilisables'} jusqu’au ${formatDay(d.endDate, 'fr')}.`,
    },
  };
}

/** What the payer can do about the provider's reason, for the reasons worth a word of their own. */
const REASONS: Record<string, LocalisedText> = {
  INSUFFICIENT_BALANCE: {
    en: 'Your balance was too low for this payment. Nothing was charged: top up your account, then try again.',
    fr: 'Votre solde était insuffisant pour ce paiement. Rien n’a été débité : rechargez votre compte, puis réessayez.',
  },
  INSTRUMENT_DECLINED: {
    en: 'Your card was declined. Nothing was charged: try another card or another way to pay.',
    fr: 'Votre carte a été refusée. Rien n’a été débité : essayez une autre carte ou un autre moyen de paiement.',
  },
  CARD_EXPIRED: {
    en: 'Your card has expired. Nothing was charged: try another card.',
    fr: 'Votre carte a expiré. Rien n’a été débité : essayez une autre carte.',
  },
};
REASONS.CAPTURE_DECLINED = REASONS.INSTRUMENT_DECLINED!;
REASONS.CAPTURE_DENIED = REASONS.INSTRUMENT_DECLINED!;
REASONS.TRANSACTION_REFUSED = REASONS.INSTRUMENT_DECLINED!;

/** A payment that failed, with the provider's reason when it gave one the payer can act on. */
export function paymentFailedTexts(code: string): { title: LocalisedText; message: LocalisedText } {
  const reason = declineReason(code);
  return {
    title: { en: 'Payment failed', fr: 'Le paiement a échoué' },
    message: (reason ? REASONS[reason] : undefined) ?? {
      en: 'The payment could not be completed. Nothing was charged; please try again.',
      fr: 'Le paiement n’a pas pu aboutir. Rien n’a été débité ; merci de réessayer.',
    },
  };
}
