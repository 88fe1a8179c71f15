import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { CURRENCIES, type Currency, formatDate, formatMoney } from '../../../lib/format';
import type { SettingsSectionProps } from '../../../lib/settings-sections';
import { toastShown } from '../../../lib/toast';
import { useAppDispatch } from '../../../lib/hooks';
import { useReload } from '../../../lib/useReload';
import {
  PACK_SERVICES,
  type Plan,
  type ServiceType,
  useGetCurrentSubscriptionQuery,
  useGetPlansQuery,
} from '../api/billing';

const PAY_PER_TRACK = 'Pay Per Track';

function priceIn(plan: Plan, currency: Currency): number {
  const byCurrency = { XOF: plan.priceXOF, USD: plan.priceUSD, EUR: plan.priceEUR }[currency];
  return byCurrency ?? plan.price;
}

/** Plans: active packs per service, a currency selector (XOF by default) and the plan cards of one service. */
export function PlansSection({ reloadToken }: SettingsSectionProps) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const plans = useGetPlansQuery();
  const subscription = useGetCurrentSubscriptionQuery();
  useReload(reloadToken, () => {
    void plans.refetch();
    void subscription.refetch();
  });
  const [params, setParams] = useSearchParams();
  const requested = params.get('service');
  const service: ServiceType = PACK_SERVICES.includes(requested as ServiceType)
    ? (requested as ServiceType)
    : 'AI_MASTERING';
  const [currency, setCurrency] = useState<Currency>('XOF');
  const currencyId = useId();
  const language = i18n.language;
  const na = t('subscription.notAvailable');

  return (
    <section className="settings-section" aria-labelledby="plans-title">
      <h2 id="plans-title">{t('account.sections.plans')}</h2>
      <div className="card">
        <h3>{t('subscription.activePacks')}</h3>
        {subscription.isLoading ? (
          <p role="status">{t('subscription.loading')}</p>
        ) : subscription.isError ? (
          <p role="alert">{t('subscription.errors.loadSubscription')}</p>
        ) : !subscription.data?.packs ? (
          <p className="muted">{t('subscription.noPacks')}</p>
        ) : (
          <dl className="packs">
            {PACK_SERVICES.map((id) => {
              const pack = subscription.data?.packs?.[id];
              if (!pack) return null;
              return (
                <div key={id} className="pack">
                  <dt>{t(`services.${id}.name`)}</dt>
                  <dd>
                    {t('subscription.packLine', {
                      remaining: pack.remaining ?? na,
                      used: pack.used ?? na,
                      total: pack.limit ?? na,
                      start: pack.startDate ? formatDate(pack.startDate, language) : na,
                      end: pack.endDate ? formatDate(pack.endDate, language) : na,
                    })}
                  </dd>
                </div>
              );
            })}
          </dl>
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
          <div className="field field--inline">
            <label htmlFor={currencyId}>{t('subscription.currency')}</label>
            <select id={currencyId} value={currency} onChange={(event) => setCurrency(event.target.value as Currency)}>
              {CURRENCIES.map((code) => (
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
            {(plans.data ?? [])
              .filter((plan) => !plan.serviceType || plan.serviceType === service)
              .map((plan) => (
                <li key={plan.id} className={`plan-card${plan.recommended ? ' plan-card--recommended' : ''}`}>
                  {plan.recommended && <span className="badge badge--accent">{t('subscription.recommended')}</span>}
                  <h4>{plan.name}</h4>
                  <p className="plan-card__price">{formatMoney(priceIn(plan, currency), currency, language)}</p>
                  <ul>
                    {(plan.features ?? []).map((feature) => (
                      <li key={feature}>{feature}</li>
                    ))}
                  </ul>
                  <button
                    type="button"
                    className="button"
                    disabled={plan.name === PAY_PER_TRACK}
                    onClick={() => dispatch(toastShown({ kind: 'info', messageKey: 'subscription.paymentSoon' }))}
                  >
                    {t('subscription.buy')}
                  </button>
                </li>
              ))}
          </ul>
        )}
      </div>
    </section>
  );
}
