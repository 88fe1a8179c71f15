import { useMemo, useState } from 'react';
import { SearchField } from '../../../components/SearchField';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDuration, formatNumber } from '../../../lib/format';
import type { SettingsSectionProps } from '../../../lib/settings-sections';
import { useReload } from '../../../lib/useReload';
import { useGetUsageHistoryQuery } from '../api/billing';
import { pageCount, pageOf } from '../../../lib/pagination';
import { Pagination } from '../../../components/Pagination';

export const USAGE_PAGE_SIZE = 10;

/** A track name as shown: every HTML tag stripped (spec §5); the search looks at this, not at the raw name. */
const shownName = (trackName: string): string => trackName.replace(/<[^>]*>/g, '');

/** Credit usage history: search, a table of date, track, service, duration and credits, 10 per page. */
export function UsageSection({ reloadToken }: SettingsSectionProps) {
  const { t, i18n } = useTranslation();
  const history = useGetUsageHistoryQuery();
  useReload(reloadToken, () => void history.refetch());
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const entries = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const list = history.isError ? [] : (history.data ?? []);
    return needle ? list.filter((entry) => shownName(entry.trackName).toLowerCase().includes(needle)) : list;
  }, [history.data, history.isError, search]);
  const pages = pageCount(entries.length, USAGE_PAGE_SIZE);

  return (
    <section className="settings-section" aria-labelledby="usage-title">
      <h2 id="usage-title">{t('subscription.usage.title')}</h2>
      <p className="muted">{t('subscription.usage.description')}</p>
      <SearchField
        label={t('subscription.usage.search')}
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      {history.isLoading ? (
        <p role="status">{t('subscription.usage.loading')}</p>
      ) : history.isError ? (
        <div className="section-error" role="alert">
          <p>{t('subscription.usage.loadError')}</p>
          <button type="button" className="button button--ghost" onClick={() => void history.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      ) : entries.length === 0 ? (
        <p className="muted">{t(search.trim() ? 'subscription.usage.noResults' : 'subscription.usage.empty')}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('subscription.usage.columns.date')}</th>
                  <th scope="col">{t('subscription.usage.columns.track')}</th>
                  <th scope="col">{t('subscription.usage.columns.service')}</th>
                  <th scope="col">{t('subscription.usage.columns.duration')}</th>
                  <th scope="col">{t('subscription.usage.columns.credits')}</th>
                </tr>
              </thead>
              <tbody>
                {pageOf(entries, page, USAGE_PAGE_SIZE).map((entry) => (
                  <tr key={entry.id}>
                    <td>{formatDate(entry.date, i18n.language)}</td>
                    <td>{shownName(entry.trackName)}</td>
                    <td>{t(`services.${entry.serviceType}.name`, { defaultValue: entry.serviceType })}</td>
                    <td>{formatDuration(entry.trackDuration)}</td>
                    <td>{formatNumber(entry.creditsUsed, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </section>
  );
}
