import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDate, formatNumber } from '../../../lib/format';
import { useGetCurrentSubscriptionQuery } from '../api/billing';

export const SUBSCRIPTION_REFRESH_MS = 30_000;

/** The header's plan badge and credits; a 404 from the subscription API means no plan (spec §7). */
export function PlanStatus() {
  const { t, i18n } = useTranslation();
  const { data, isLoading, isError } = useGetCurrentSubscriptionQuery(undefined, {
    pollingInterval: SUBSCRIPTION_REFRESH_MS,
  });
  if (isLoading || isError || data === undefined) return null;
  const planName = data?.plan?.name ?? null;
  const remaining = data ? Math.max(0, (data.totalCredits ?? 0) - (data.creditsUsed ?? 0)) : 0;
  return (
    <div className="plan-status">
      <div className="plan-status__plan">
        <span className={`badge${planName ? ' badge--accent' : ''}`}>{planName ?? t('plan.none')}</span>
        {data?.plan?.unlimitedPreview && <span className="badge badge--muted">{t('plan.unlimitedPreview')}</span>}
        {data?.endDate && (
          <span className="plan-status__expiry">
            {t('plan.expires', { date: formatDate(data.endDate, i18n.language) })}
          </span>
        )}
        <Link className="button button--small" to="/accountSettings?section=plans">
          {t('plan.upgrade')}
        </Link>
      </div>
      <div className="plan-status__credits">
        <span>{t('plan.credits', { count: remaining, formatted: formatNumber(remaining, i18n.language) })}</span>
        <Link className="link-button" to="/accountSettings?section=plans#plansSection">
          {t('plan.viewPacks')}
        </Link>
      </div>
    </div>
  );
}
