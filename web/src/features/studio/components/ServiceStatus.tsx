import { useTranslation } from 'react-i18next';
import { useGetHealthQuery } from '../api/health';

/** A one-line service status, polled once a minute. */
export function ServiceStatus() {
  const { t } = useTranslation();
  const { data, isError, isLoading } = useGetHealthQuery(undefined, { pollingInterval: 60_000 });
  if (isLoading) return <p className="status status--pending">{t('app.loading')}</p>;
  if (isError || !data) return <p className="status status--down">{t('status.unreachable')}</p>;
  if (data.status === 'ok') return <p className="status status--up">{t('status.ok')}</p>;
  const parts = data.failing.map((name) => t(`status.checks.${name}`, { defaultValue: name })).join(', ');
  return <p className="status status--down">{t('status.degraded', { parts })}</p>;
}
