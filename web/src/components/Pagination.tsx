import { useTranslation } from 'react-i18next';
import { useWindowWidth } from '../lib/useWindowWidth';
import { pageWindow, showEdgeButtons } from '../lib/pagination';

/** Shown only when there is more than one page (spec §2). */
export function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage(page: number): void }) {
  const { t } = useTranslation();
  const width = useWindowWidth();
  if (pages <= 1) return null;
  const edges = showEdgeButtons(width);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {edges && (
        <button type="button" disabled={page === 1} onClick={() => onPage(1)}>
          {t('pagination.first')}
        </button>
      )}
      <button
        type="button"
        disabled={page === 1}
        onClick={() => onPage(page - 1)}
        aria-label={t('pagination.previous')}
      >
        ‹
      </button>
      {pageWindow(page, pages, width).map((number) => (
        <button
          key={number}
          type="button"
          aria-current={number === page ? 'page' : undefined}
          aria-label={t('pagination.page', { page: number })}
          onClick={() => onPage(number)}
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        disabled={page === pages}
        onClick={() => onPage(page + 1)}
        aria-label={t('pagination.next')}
      >
        ›
      </button>
      {edges && (
        <button type="button" disabled={page === pages} onClick={() => onPage(pages)}>
          {t('pagination.last')}
        </button>
      )}
    </nav>
  );
}
