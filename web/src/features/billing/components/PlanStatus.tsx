import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDate, formatNumber } from '../../../lib/format';
import { PACK_SERVICES, useGetCurrentSubscriptionQuery } from '../api/billing';

export const SUBSCRIPTION_REFRESH_MS = 30_000;

/**
 * The header's plan badge and credits; a 404 from the subscription API means no plan (spec §7). Credits belong to
 * a service (a mastering credit does not unlock a separation): they are shown service by service, never summed.
 */
export function PlanStatus() {
  const { t, i18n } = useTranslation();
  const { data, isLoading, isError } = useGetCurrentSubscriptionQuery(undefined, {
    pollingInterval: SUBSCRIPTION_REFRESH_MS,
  });
  if (isLoading || isError || data === undefined) return null;
  const planName = data?.plan?.name ?? null;
  // Packs paid once (every pack sold today) do not renew: the header says until when their credits last, the
  // soonest end first (the credits that lapse first), as the spec's header gives a plan's expiry.
  const packs = data?.activePacks ?? [];
  const paidOnce = packs.length > 0 && packs.every((pack) => !pack.renews);
  const soonest = paidOnce ? packs.map((pack) => pack.endDate).sort()[0] : undefined;
  const endDate = soonest ?? data?.endDate ?? null;
  return (
    <div className="plan-status">
      <div className="plan-status__plan">
        <span className={`badge${planName ? ' badge--accent' : ''}`}>{planName ?? t('plan.none')}</span>
        {data?.plan?.unlimitedPreview && <span className="badge badge--muted">{t('plan.unlimitedPreview')}</span>}
        {endDate && (
          <span className="plan-status__expiry">
            {t(paidOnce ? 'plan.validUntil' : 'plan.expires', { date: formatDate(endDate, i18n.language) })}
          </span>
        )}
        <Link className="button button--small" to="/accountSettings?section=plans">
          {t('plan.upgrade')}
        </Link>
      </div>
      <div className="plan-status__credits">
        <ul className="plan-status__services" aria-label={t('plan.creditsLabel')}>
          {PACK_SERVICES.map((service) => {
            const remaining = Math.max(0, data?.remaining?.[service] ?? 0);
            return (
              <li key={service}>
                {t('plan.serviceCredits', {
                  service: t(`plan.services.${service}`),
                  credits: t('plan.credits', { count: remaining, formatted: formatNumber(remaining, i18n.language) }),
                })}
              </li>
            );
          })}
        </ul>
        <Link className="link-button" to="/accountSettings?section=plans#plansSection">
          {t('plan.viewPacks')}
        </Link>
      </div>
    </div>
  );
}
