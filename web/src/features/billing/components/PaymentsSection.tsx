import { useCallback, useMemo, useState } from 'react';
import { SearchField } from '../../../components/SearchField';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { formatDate, formatMoney } from '../../../lib/format';
import type { SettingsSectionProps } from '../../../lib/settings-sections';
import { useReload } from '../../../lib/useReload';
import { type PaymentRecord, useGetPaymentHistoryQuery } from '../api/billing';
import { pageCount, pageOf } from '../../../lib/pagination';
import { Pagination } from '../../../components/Pagination';

export const PAYMENTS_PAGE_SIZE = 7;
type SortKey = 'method' | 'date' | 'amount';

/**
 * A payment's status badge. A declined or refunded payment is not called paid, and a cancelled or expired one is not
 * called failed: the history says what happened (the detailed status, where the server's `status` merges them).
 */
function PaymentStatus({ payment }: { payment: PaymentRecord }) {
  const { t } = useTranslation();
  const status = payment.detailedStatus;
  if (status === 'paid') return <span className="badge badge--ok">{t('account.payments.paid')}</span>;
  return (
    <span className="badge badge--muted">{t(`account.payments.statuses.${status}`, { defaultValue: status })}</span>
  );
}

/** Payment history: search, a sortable table (method, date, amount, status), 7 per page. */
export function PaymentsSection({ reloadToken }: SettingsSectionProps) {
  const { t, i18n } = useTranslation();
  const history = useGetPaymentHistoryQuery();
  useReload(reloadToken, () => void history.refetch());
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'date', descending: true });
  const [page, setPage] = useState(1);
  const language = i18n.language;
  const method = useCallback(
    (payment: PaymentRecord) =>
      // The server says "mobile money" where the labels have mobile_money.
      t(`account.payments.methods.${payment.payment_method.replace(/\s+/g, '_')}`, {
        defaultValue: payment.payment_method,
      }),
    [t],
  );

  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const list = (history.data ?? []).filter(
      (payment) =>
        !needle ||
        [payment.planName ?? '', method(payment), formatDate(payment.date, language)].some((text) =>
          text.toLowerCase().includes(needle),
        ),
    );
    const value = (payment: PaymentRecord) =>
      sort.key === 'amount' ? payment.amount : sort.key === 'date' ? Date.parse(payment.date) : method(payment);
    return [...list].sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return sort.descending ? -order : order;
    });
  }, [history.data, search, sort, language, method]);

  if (history.isError) {
    return (
      <section className="settings-section" aria-labelledby="payments-title">
        <h2 id="payments-title">{t('account.sections.payments')}</h2>
        <div className="section-error" role="alert">
          <p>{t('account.payments.errors.failedToLoad')}</p>
          <button type="button" className="button button--ghost" onClick={() => void history.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      </section>
    );
  }

  const header = (key: SortKey) => (
    <th scope="col" aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className="link-button"
        onClick={() => setSort((current) => ({ key, descending: current.key === key ? !current.descending : false }))}
      >
        {t(`account.payments.columns.${key}`)}
      </button>
    </th>
  );

  return (
    <section className="settings-section" aria-labelledby="payments-title">
      <h2 id="payments-title">{t('account.sections.payments')}</h2>
      <SearchField
        label={t('account.payments.search')}
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      {history.isLoading ? (
        <LoadingScreen />
      ) : rows.length === 0 ? (
        <p className="muted">{t(search.trim() ? 'account.payments.noResults' : 'account.payments.empty')}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  {header('method')}
                  {header('date')}
                  {header('amount')}
                  <th scope="col">{t('account.payments.columns.status')}</th>
                </tr>
              </thead>
              <tbody>
                {pageOf(rows, page, PAYMENTS_PAGE_SIZE).map((payment) => (
                  <tr key={payment.id}>
                    <td>{method(payment)}</td>
                    <td>{formatDate(payment.date, language)}</td>
                    <td>{formatMoney(payment.amount, payment.currency, language)}</td>
                    <td>
                      <PaymentStatus payment={payment} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pages={pageCount(rows.length, PAYMENTS_PAGE_SIZE)} onPage={setPage} />
        </>
      )}
    </section>
  );
}
