import type { BillingService, Plan } from '@kora/contracts';
import { type ComponentType, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { Modal } from '../../../components/Modal';
import { CrownIcon, InfiniteIcon, RocketIcon } from '../../../components/icons';
import { CURRENCY_CHOICES, type Currency, formatDate, formatMoney, formatNumber } from '../../../lib/format';
import type { SettingsSectionProps } from '../../../lib/settings-sections';
import { toastShown } from '../../../lib/toast';
import { useAppDispatch } from '../../../lib/hooks';
import { useReload } from '../../../lib/useReload';
import {
  type ActivePack,
  PACK_SERVICES,
  type ServiceType,
  useCancelSubscriptionMutation,
  useGetCurrentSubscriptionQuery,
  useGetPayPerTrackPlansQuery,
  useGetPlansQuery,
} from '../api/billing';

const PAY_PER_TRACK = 'Pay Per Track';
export const YEARLY_DISCOUNT_PERCENT = 20;
/** Spec: after a pack payment, packs are refreshed 3 s later (the grant is asynchronous). */
export const PACK_REFRESH_DELAY_MS = 3000;

export type BillingCycle = 'MONTHLY' | 'YEARLY';

/** What the app's payment panel gets to buy a pack (another feature's, given by the app). */
export interface PackPurchaseSlotProps {
  plan: { id: string; name: string; serviceType?: BillingService };
  billingCycle: BillingCycle;
  currency: Currency;
  amount: number;
  onPurchased(): void;
  onClose(): void;
}

/** A plan's price in a currency and cycle: the server's yearly price, else 12 x monthly less 20 %. */
export function priceIn(plan: Plan, currency: Currency, cycle: BillingCycle = 'MONTHLY'): number {
  const monthly = { XOF: plan.priceXOF, USD: plan.priceUSD, EUR: plan.priceEUR }[currency] ?? plan.price;
  if (cycle === 'MONTHLY') return monthly;
  const yearly = plan.yearly
    ? { XOF: plan.yearly.priceXOF, USD: plan.yearly.priceUSD, EUR: plan.yearly.priceEUR }
    : null;
  const served = yearly?.[currency];
  if (typeof served === 'number') return served;
  const total = monthly * 12 * (1 - YEARLY_DISCOUNT_PERCENT / 100);
  return currency === 'XOF' ? Math.round(total) : Math.round(total * 100) / 100;
}

const ICONS = { crown: CrownIcon, rocket: RocketIcon, infinite: InfiniteIcon } as const;

/** A plan's selling points in the interface language (the catalogue has each language), else as sent. */
export function planFeatures(plan: Plan, language: string): string[] {
  const localized = plan.i18n?.[language === 'en' ? 'en' : 'fr']?.features;
  return localized && localized.length > 0 ? localized : (plan.features ?? []);
}

interface PlansSectionProps extends SettingsSectionProps {
  Purchase?: ComponentType<PackPurchaseSlotProps>;
}

/** Plans: active packs with usage and dates, a currency and cycle selector, and the plan cards of one service. */
export function PlansSection({ reloadToken, markStale, Purchase }: PlansSectionProps) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const plans = useGetPlansQuery();
  // The Pay Per Track plan is shown among the cards, its buy button disabled (spec §2): a track is paid on its result.
  const payPerTrack = useGetPayPerTrackPlansQuery();
  const subscription = useGetCurrentSubscriptionQuery();
  const [cancelSubscription, cancelState] = useCancelSubscriptionMutation();
  useReload(reloadToken, () => {
    void plans.refetch();
    void payPerTrack.refetch();
    void subscription.refetch();
  });
  const [params, setParams] = useSearchParams();
  const requested = params.get('service');
  const service: ServiceType = PACK_SERVICES.includes(requested as ServiceType)
    ? (requested as ServiceType)
    : 'AI_MASTERING';
  const [currency, setCurrency] = useState<Currency>('XOF');
  const [cycle, setCycle] = useState<BillingCycle>('MONTHLY');
  const [buying, setBuying] = useState<Plan | null>(null);
  /** The pack whose renewal the user is about to cancel. */
  const [confirmCancel, setConfirmCancel] = useState<ActivePack | null>(null);
  const currencyId = useId();
  const language = i18n.language;
  const na = t('subscription.notAvailable');
  const packs: ActivePack[] = subscription.data?.activePacks ?? [];

  const purchased = () => {
    dispatch(toastShown({ kind: 'success', messageKey: 'subscription.purchased' }));
    markStale(['payments', 'usage']);
    setTimeout(() => void subscription.refetch(), PACK_REFRESH_DELAY_MS);
  };

  const cancel = async (pack: ActivePack) => {
    try {
      await cancelSubscription(pack.id).unwrap();
      setConfirmCancel(null);
      dispatch(toastShown({ kind: 'success', messageKey: 'subscription.renewalCancelled' }));
      void subscription.refetch();
    } catch {
      setConfirmCancel(null);
      dispatch(toastShown({ kind: 'error', messageKey: 'subscription.cancelFailed' }));
    }
  };

  return (
    <section className="settings-section" aria-labelledby="plans-title">
      <h2 id="plans-title">{t('account.sections.plans')}</h2>
      <div className="card">
        <h3>{t('subscription.activePacks')}</h3>
        {subscription.isLoading ? (
          <p role="status">{t('subscription.loading')}</p>
        ) : subscription.isError ? (
          <p role="alert">{t('subscription.errors.loadSubscription')}</p>
        ) : packs.length === 0 ? (
          <p className="muted">{t('subscription.noPacks')}</p>
        ) : (
          <>
            <ul className="packs">
              {packs.map((pack) => (
                <li key={pack.id} className="pack">
                  <p className="pack__name">
                    <strong>{pack.planName}</strong> · {t(`services.${pack.serviceType}.name`)}
                    {pack.billingCycle === 'YEARLY' && <span className="badge">{t('subscription.yearly')}</span>}
                    {pack.renews && pack.renewalCancelled && (
                      <span className="badge badge--muted">{t('subscription.ending')}</span>
                    )}
                  </p>
                  <p>
                    {t('subscription.packLine', {
                      left: t('subscription.packLeft', {
                        count: pack.remaining ?? 0,
                        formatted: formatNumber(pack.remaining ?? 0, language),
                      }),
                      used: t('subscription.packUsed', {
                        count: pack.used ?? 0,
                        formatted: formatNumber(pack.used ?? 0, language),
                        total: formatNumber(pack.limit ?? 0, language),
                      }),
                      start: pack.startDate ? formatDate(pack.startDate, language) : na,
                      end: pack.endDate ? formatDate(pack.endDate, language) : na,
                    })}
                  </p>
                  <progress
                    max={pack.limit || 1}
                    value={pack.used ?? 0}
                    aria-label={t('subscription.usedOf', {
                      count: pack.used ?? 0,
                      formatted: formatNumber(pack.used ?? 0, language),
                      total: formatNumber(pack.limit ?? 0, language),
                    })}
                  />
                  {!pack.renews && (
                    <p className="muted">
                      {t('subscription.oneOff', {
                        end: pack.endDate ? formatDate(pack.endDate, language) : na,
                      })}
                    </p>
                  )}
                  {pack.renews && !pack.renewalCancelled && (
                    <button
                      type="button"
                      className="button button--small button--ghost"
                      aria-label={t('subscription.cancelPackNamed', { name: pack.planName })}
                      onClick={() => setConfirmCancel(pack)}
                    >
                      {t('subscription.cancel')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div id="plansSection" className="card">
        <div className="plans__toolbar">
          <div className="segmented" role="group" aria-label={t('subscription.serviceLabel')}>
            {PACK_SERVICES.map((id) => (
              <button
                key={id}
                type="button"
                aria-pressed={id === service}
                onClick={() => {
                  const next = new URLSearchParams(params);
                  next.set('service', id);
                  setParams(next, { replace: true });
                }}
              >
                {t(`services.${id}.name`)}
              </button>
            ))}
          </div>
          <div className="segmented" role="group" aria-label={t('subscription.cycleLabel')}>
            {(['MONTHLY', 'YEARLY'] as const).map((id) => (
              <button key={id} type="button" aria-pressed={id === cycle} onClick={() => setCycle(id)}>
                {id === 'MONTHLY'
                  ? t('subscription.monthly')
                  : t('subscription.yearlySave', { percent: YEARLY_DISCOUNT_PERCENT })}
              </button>
            ))}
          </div>
          <div className="field field--inline">
            <label htmlFor={currencyId}>{t('subscription.currency')}</label>
            <select id={currencyId} value={currency} onChange={(event) => setCurrency(event.target.value as Currency)}>
              {CURRENCY_CHOICES.map((code) => (
                <option key={code} value={code}>
                  {t(`currencies.${code}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {plans.isLoading || plans.isFetching ? (
          <LoadingScreen messageKey="subscription.loading" />
        ) : plans.isError ? (
          <div className="section-error" role="alert">
            <p>{t('subscription.errors.loadPlans')}</p>
            <button type="button" className="button button--ghost" onClick={() => void plans.refetch()}>
              {t('common.retry')}
            </button>
          </div>
        ) : (
          <ul className="plan-cards">
            {(payPerTrack.data ?? [])
              .filter((plan) => plan.serviceType === service)
              .map((plan) => (
                <li key={plan.id} className="plan-card">
                  <h4 className="plan-card__name">{t('subscription.payPerTrack')}</h4>
                  <p className="plan-card__price">
                    {formatMoney(priceIn(plan, currency), currency, language)}
                    <span className="muted"> {t('subscription.perTrack')}</span>
                  </p>
                  <FeatureList plan={plan} language={language} />
                  <button
                    type="button"
                    className="button"
                    disabled
                    aria-describedby={`${currencyId}-${plan.id}`}
                    aria-label={t('subscription.buyPlan', { name: t('subscription.payPerTrack') })}
                  >
                    {t('subscription.buy')}
                  </button>
                  <p id={`${currencyId}-${plan.id}`} className="muted">
                    {t('subscription.payPerTrackHint')}
                  </p>
                </li>
              ))}
            {(plans.data ?? [])
              .filter((plan) => !plan.serviceType || plan.serviceType === service)
              .map((plan) => {
                const Icon = plan.icon ? ICONS[plan.icon] : null;
                const price = priceIn(plan, currency, cycle);
                return (
                  <li key={plan.id} className={`plan-card${plan.recommended ? ' plan-card--recommended' : ''}`}>
                    {plan.recommended && <span className="badge badge--accent">{t('subscription.recommended')}</span>}
                    <h4 className="plan-card__name">
                      {Icon && <Icon />}
                      {plan.name}
                    </h4>
                    <p className="plan-card__price">
                      {formatMoney(price, currency, language)}
                      <span className="muted">
                        {' '}
                        {t(cycle === 'YEARLY' ? 'subscription.perYear' : 'subscription.perMonth')}
                      </span>
                    </p>
                    {cycle === 'YEARLY' && (
                      <p className="plan-card__saving">
                        {t('subscription.yearlyInstead', {
                          price: formatMoney(priceIn(plan, currency) * 12, currency, language),
                          percent: plan.yearlyDiscountPercent ?? YEARLY_DISCOUNT_PERCENT,
                        })}
                      </p>
                    )}
                    <FeatureList plan={plan} language={language} />
                    <button
                      type="button"
                      className="button"
                      disabled={plan.name === PAY_PER_TRACK || plan.purchasable === false}
                      aria-label={t('subscription.buyPlan', { name: plan.name })}
                      onClick={() =>
                        Purchase
                          ? setBuying(plan)
                          : dispatch(toastShown({ kind: 'info', messageKey: 'subscription.paymentSoon' }))
                      }
                    >
                      {t('subscription.buy')}
                    </button>
                  </li>
                );
              })}
          </ul>
        )}
      </div>
      {buying && Purchase && (
        <Purchase
          plan={buying}
          billingCycle={cycle}
          currency={currency}
          amount={priceIn(buying, currency, cycle)}
          onPurchased={purchased}
          onClose={() => setBuying(null)}
        />
      )}
      {confirmCancel && (
        <Modal
          title={t('subscription.cancelPackTitle', { name: confirmCancel.planName })}
          onClose={() => setConfirmCancel(null)}
        >
          <p>
            {t('subscription.cancelPackBody', {
              end: confirmCancel.endDate ? formatDate(confirmCancel.endDate, language) : na,
            })}
          </p>
          <div className="modal__actions">
            <button type="button" className="button button--ghost" onClick={() => setConfirmCancel(null)}>
              {t('subscription.keep')}
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={cancelState.isLoading}
              onClick={() => void cancel(confirmCancel)}
            >
              {t('subscription.confirmCancel')}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}

/** A plan's features in the reader's language (the catalogue carries both). */
function FeatureList({ plan, language }: { plan: Parameters<typeof planFeatures>[0]; language: string }) {
  return (
    <ul>
      {planFeatures(plan, language).map((feature) => (
        <li key={feature}>{feature}</li>
      ))}
    </ul>
  );
}
