import type { BillingService } from '@kora/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Modal } from '../../../components/Modal';
import { browserCurrency } from '../../../lib/currency';
import { errorKey } from '../../../lib/error-codes';
import { CURRENCY_CHOICES, type Currency, formatMoney } from '../../../lib/format';
import {
  failureCode,
  planPrice,
  useGetCreditsQuery,
  useGetPayPerTrackQuery,
  useGetPreferredCurrencyQuery,
  useTrackMasterMutation,
  useMixStatusMutation,
  useTrackStatusMutation,
  useUnlockMasterMutation,
} from '../api/payment';
import { ErrorBanner } from './ErrorBanner';
import { OrangeMoneyModal } from './OrangeMoneyModal';
import { PaymentMethods } from './PaymentMethods';
import { canUseCredit, resultDownloadable, unlockLimits, waitForMaster } from '../model/rules';
import { type CheckoutOrder, useCheckout } from '../hooks/useCheckout';
import './payment.css';

export interface PaymentUnlockProps {
  track: { id: string; service: BillingService; status: string; filename: string; isDemo: boolean; unlocked: boolean };
  onUnlocked(): void;
}

const LOCKED = new Set(['PREVIEW_READY', 'STEMS_READY']);

/** The services credit packs are sold for (the spec's plans): AI mixing has none, each mix is paid on its own. */
const PACK_SERVICES = new Set(['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT']);

export const plansLink = (service: string) =>
  `/accountSettings?section=plans&service=${encodeURIComponent(service)}#plansSection`;

/**
 * The pay panel's currency (spec §4): the one picked by hand, else the one saved in the account's preferences, else
 * the browser's locale while those load. A preference that arrives after the panel opened switches it, unless the user
 * already chose. Once a payment (or a credit) runs, its currency stays: the price shown and the order being paid must
 * not change under it.
 */
function usePanelCurrency(saved: Currency | null | undefined, locked: boolean) {
  const [detected] = useState(browserCurrency);
  const [chosen, setChosen] = useState<Currency | null>(null);
  const currency = chosen ?? saved ?? detected;
  useEffect(() => {
    if (locked && chosen === null) setChosen(currency);
  }, [chosen, currency, locked]);
  return [currency, setChosen] as const;
}

/**
 * The payment unlock screen (spec §2, §4): on a locked result, a credit of the service or one payment for the
 * track; then the track is polled until its master is ready, and the thank-you banner stays on the result.
 */
export function PaymentUnlock({ track, onUnlocked }: PaymentUnlockProps) {
  const { t, i18n } = useTranslation();
  const [creditOpen, setCreditOpen] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const [unlocking, setUnlocking] = useState(false);
  const [thanks, setThanks] = useState(false);
  const payable = !track.unlocked && !track.isDemo;
  const credits = useGetCreditsQuery(undefined, { skip: !payable });
  const plan = useGetPayPerTrackQuery(track.service, { skip: !payable });
  // Asked afresh on each mount: the account settings may have saved another currency since.
  const preferred = useGetPreferredCurrencyQuery(undefined, { skip: !payable, refetchOnMountOrArgChange: true });
  const [unlockMaster] = useUnlockMasterMutation();
  const [askStatus] = useTrackStatusMutation();
  const [askMaster] = useTrackMasterMutation();
  const [askMix] = useMixStatusMutation();
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  // The socket's word on this track (its status in the studio's cache) cuts the wait between two questions short.
  const wake = useRef<(() => void) | null>(null);
  useEffect(() => {
    wake.current?.();
  }, [track.status, track.unlocked]);
  const sleep = useCallback(
    (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          if (wake.current === done) wake.current = null;
          resolve();
        }
        wake.current = done;
      }),
    [],
  );

  /**
   * After the payment or the credit: the track until its result downloads (asked at once, then on each word of the
   * socket about it, at least every 2 s: 60 tries, then 10 for the downloads).
   */
  const awaitMaster = useCallback(async (): Promise<string | null> => {
    setUnlocking(true);
    try {
      // A mix session has no track status: it is ready once the payment or credit has unlocked it.
      const mixing = track.service === 'AI_MIXING';
      const mixUnlocked = async () => (await askMix(track.id).unwrap()).session;
      const outcome = await waitForMaster(
        {
          status: mixing
            ? async () => {
                const session = await mixUnlocked();
                return session.status === 'FAILED' ? 'FAILED' : session.unlocked ? 'MASTER_READY' : session.status;
              }
            : async () => (await askStatus(track.id).unwrap()).status,
          downloadable: mixing
            ? async () => (await mixUnlocked()).unlocked
            : async () => resultDownloadable(await askMaster(track.id).unwrap()),
          sleep,
          cancelled: () => !alive.current,
        },
        unlockLimits(track.service),
      );
      if (outcome === 'ready') {
        setThanks(true);
        setPanelOpen(false);
        onUnlocked();
        return null;
      }
      return outcome === 'failed' ? 'payment:errors.processingFailed' : 'payment:errors.timeout';
    } finally {
      if (alive.current) setUnlocking(false);
    }
  }, [askMaster, askMix, askStatus, onUnlocked, sleep, track.id, track.service]);

  const checkout = useCheckout(async (paymentId) => {
    // The payment unlocks the track by itself; asking again with it is harmless and quicker when it is done.
    await unlockMaster({ trackId: track.id, paymentId })
      .unwrap()
      .catch(() => undefined);
    const failure = await awaitMaster();
    if (failure) checkout.fail(failure);
  });
  const locked = checkout.busy || unlocking;
  const [currency, setCurrency] = usePanelCurrency(preferred.data, locked);

  const useCredit = async () => {
    setCreditOpen(false);
    await checkout.run(async () => {
      try {
        await unlockMaster({ trackId: track.id, credit: true }).unwrap();
      } catch (caught) {
        checkout.fail(errorKey('credit', failureCode(caught), 'payment:errors.credit'));
        return;
      }
      const failure = await awaitMaster();
      if (failure) checkout.fail(failure);
    });
  };

  if (track.unlocked) {
    if (track.isDemo && !thanks) return null;
    return (
      <div className="payment-banner payment-banner--thanks" role="status">
        <p>
          <strong>{t('payment:thanks.title')}</strong> {t('payment:thanks.body')}
        </p>
      </div>
    );
  }
  if (!LOCKED.has(track.status)) return null;

  const remaining = credits.data?.remaining[track.service];
  const hasCredit = canUseCredit(remaining);
  const demo = track.isDemo;
  const mix = track.service === 'AI_MIXING';
  const packs = PACK_SERVICES.has(track.service);
  // "Use a credit" only where a credit of the service can be used: with none left, the packs are offered instead
  // (spec §5); for a service without packs, only the payment.
  const creditButton = packs && (demo || credits.isLoading || hasCredit);
  const amount = plan.data ? planPrice(plan.data, currency) : null;
  const order: CheckoutOrder = {
    paymentType: 'TRACK',
    trackId: track.id,
    service: track.service,
    currency,
    ...(plan.data ? { planId: plan.data.id } : {}),
  };

  return (
    <section className="payment-options" aria-labelledby="payment-options-title">
      <ErrorBanner error={checkout.error} onClose={checkout.dismissError} />
      <h3 id="payment-options-title">{t('payment:options.title')}</h3>
      <p className="muted">
        {t(demo ? 'payment:options.demo' : mix ? 'payment:options.introMix' : 'payment:options.intro')}
      </p>
      {unlocking && (
        <p className="payment-progress" role="status">
          {t('payment:unlocking')}
        </p>
      )}
      <div className="payment-options__actions">
        {creditButton && (
          <button
            type="button"
            className="button"
            disabled={demo || locked || credits.isLoading}
            onClick={() => setCreditOpen(true)}
          >
            {t('payment:options.useCredit')}
          </button>
        )}
        <button
          type="button"
          className={creditButton ? 'button button--ghost' : 'button'}
          disabled={demo || locked}
          onClick={() => setPanelOpen(true)}
        >
          {t(mix ? 'payment:options.payMix' : 'payment:options.payTrack')}
        </button>
        {packs && !creditButton && (
          <Link className="button button--ghost" to={plansLink(track.service)}>
            {t('payment:credit.buyPack')}
          </Link>
        )}
      </div>
      {packs && credits.isError && <p className="field__error">{t('payment:errors.credits')}</p>}
      {!credits.isLoading && !demo && (
        <p className="muted">
          {!packs
            ? t('payment:options.noPacks')
            : hasCredit
              ? t('payment:options.creditsLeft', { count: remaining ?? 0 })
              : t('payment:options.noCredits')}
        </p>
      )}

      {creditOpen && (
        <Modal title={t('payment:credit.title')} onClose={() => setCreditOpen(false)} className="credit-modal">
          {hasCredit ? (
            <>
              <p>{t('payment:credit.confirm', { name: track.filename, count: remaining ?? 0 })}</p>
              <ul className="warning-list">
                <li>{t('payment:credit.warnings.one')}</li>
                <li>{t('payment:credit.warnings.final')}</li>
                <li>{t('payment:credit.warnings.firstEnding')}</li>
                <li>{t('payment:credit.warnings.downloads')}</li>
              </ul>
              <div className="modal__actions">
                <button type="button" className="button button--ghost" onClick={() => setCreditOpen(false)}>
                  {t('payment:credit.cancel')}
                </button>
                <button type="button" className="button" onClick={() => void useCredit()}>
                  {t('payment:credit.use')}
                </button>
              </div>
            </>
          ) : (
            <>
              <p>{t('payment:credit.none')}</p>
              <div className="modal__actions">
                <button type="button" className="button button--ghost" onClick={() => setCreditOpen(false)}>
                  {t('payment:close')}
                </button>
                <Link className="button" to={plansLink(track.service)}>
                  {t('payment:credit.buyPack')}
                </Link>
              </div>
            </>
          )}
        </Modal>
      )}

      {panelOpen && (
        <Modal
          title={t('payment:panel.title')}
          onClose={() => (locked ? undefined : setPanelOpen(false))}
          className="side-panel"
        >
          <p className="side-panel__track">{track.filename}</p>
          <p>{t('payment:panel.intro')}</p>
          <div className="field">
            <label htmlFor="payment-currency">{t('payment:panel.currency')}</label>
            <select
              id="payment-currency"
              value={currency}
              disabled={locked}
              onChange={(event) => setCurrency(event.target.value as Currency)}
            >
              {CURRENCY_CHOICES.map((code) => (
                <option key={code} value={code}>
                  {t(`currencies.${code}`)}
                </option>
              ))}
            </select>
          </div>
          {plan.isLoading ? (
            <p role="status">{t('payment:panel.loading')}</p>
          ) : amount === null ? (
            <p role="alert">{t('payment:errors.price')}</p>
          ) : (
            <p className="side-panel__price">
              {t('payment:panel.price')} <strong>{formatMoney(amount, currency, i18n.language)}</strong>
            </p>
          )}
          <ErrorBanner error={checkout.error} onClose={checkout.dismissError} />
          <PaymentMethods checkout={checkout} order={order} amount={amount} disabled={unlocking} />
          {unlocking && (
            <p className="payment-progress" role="status">
              {t('payment:unlocking')}
            </p>
          )}
          <div className="modal__actions">
            <button
              type="button"
              className="button button--ghost"
              disabled={locked}
              onClick={() => setPanelOpen(false)}
            >
              {t('payment:close')}
            </button>
          </div>
        </Modal>
      )}

      {checkout.orange && (
        <OrangeMoneyModal intent={checkout.orange} onPaid={checkout.orangePaid} onClosed={checkout.orangeClosed} />
      )}
    </section>
  );
}
