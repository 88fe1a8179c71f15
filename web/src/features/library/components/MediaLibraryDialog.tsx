import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { Modal } from '../../../components/Modal';
import { errorBody } from '../../../lib/api';
import { errorKey } from '../../../lib/error-codes';
import { formatDate, formatNumber } from '../../../lib/format';
import type { LibraryTrack, Track, TrackOptions, TrackService } from '@kora/contracts';
import { useGetLibraryQuery, useReprocessTrackMutation } from '../api/library';
import { displayName } from '../model/tracks';
import './library.css';

export type LibrarySortKey = 'name' | 'size' | 'date';
export interface LibrarySort {
  key: LibrarySortKey;
  descending: boolean;
}

/** The spec's default: newest first. */
export const DEFAULT_LIBRARY_SORT: LibrarySort = { key: 'date', descending: true };

/** The rows to show: the search on the file name (any case), then the sort (ties in name order). */
export function libraryRows(tracks: readonly LibraryTrack[], search: string, sort: LibrarySort): LibraryTrack[] {
  const needle = search.trim().toLowerCase();
  const found = tracks.filter((track) => !needle || displayName(track.filename).toLowerCase().includes(needle));
  const value = (track: LibraryTrack): number | string =>
    sort.key === 'size'
      ? track.fileSize
      : sort.key === 'date'
        ? Date.parse(track.createdAt)
        : displayName(track.filename);
  return [...found].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const order =
      typeof x === 'number' && typeof y === 'number'
        ? x - y
        : String(x).localeCompare(String(y), undefined, { sensitivity: 'base' });
    const tie = order === 0 ? displayName(a.filename).localeCompare(displayName(b.filename)) : 0;
    return sort.descending ? -order || tie : order || tie;
  });
}

/** The message key for a refused selection (spec §8: library selection errors through translation keys). */
function selectionError(error: unknown): { key: string; limitMb?: number; limitMinutes?: number } {
  const body = errorBody(error);
  const details = (body as { details?: { limitMb?: number; limitMinutes?: number } } | null)?.details;
  return {
    key: errorKey('library', body?.code, 'library.media.errors.selectFailed'),
    limitMb: details?.limitMb,
    limitMinutes: details?.limitMinutes,
  };
}

export interface MediaLibraryDialogProps {
  open: boolean;
  /** The service of the new job. */
  service: TrackService;
  /** The options chosen on the upload card (a stem mode, an enhancement preset, mastering's), if any. */
  options?: Omit<TrackOptions, 'service'>;
  onClose(): void;
  /** The new track, processing: the caller closes the dialog and follows it. */
  onStarted(track: Track): void;
}

/**
 * The media library (spec §2): the user's earlier uploads in an extra-large dialog, searchable and sortable by name,
 * size and date (newest first by default). Choosing one starts a new job for `service` from it; while that is on its
 * way an overlay says so and the rows are disabled.
 */
export function MediaLibraryDialog({ open, ...props }: MediaLibraryDialogProps) {
  return open ? <LibraryDialog {...props} /> : null;
}

function LibraryDialog({ service, options, onClose, onStarted }: Omit<MediaLibraryDialogProps, 'open'>) {
  const { t, i18n } = useTranslation();
  const searchId = useId();
  const library = useGetLibraryQuery(
    { service, ...(options?.preset ? { preset: options.preset } : {}) },
    { refetchOnMountOrArgChange: true },
  );
  const [reprocess] = useReprocessTrackMutation();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<LibrarySort>(DEFAULT_LIBRARY_SORT);
  const [selecting, setSelecting] = useState<LibraryTrack | null>(null);
  const [error, setError] = useState<{ key: string; limitMb?: number; limitMinutes?: number } | null>(null);
  const language = i18n.language;
  const rows = useMemo(() => libraryRows(library.data?.tracks ?? [], search, sort), [library.data, search, sort]);
  const hidden = library.data?.hidden ?? 0;

  const choose = async (track: LibraryTrack) => {
    if (selecting) return;
    setSelecting(track);
    setError(null);
    try {
      const started = await reprocess({ id: track.id, service, ...options }).unwrap();
      onStarted(started);
    } catch (failure) {
      console.error('The media library could not start the job', failure);
      setError(selectionError(failure));
    } finally {
      setSelecting(null);
    }
  };

  const size = (bytes: number) =>
    bytes >= 1024 * 1024
      ? t('library.media.sizeMb', { size: formatNumber(bytes / (1024 * 1024), language, 1) })
      : t('library.media.sizeKb', { size: formatNumber(Math.max(1, Math.round(bytes / 1024)), language, 0) });

  const header = (key: LibrarySortKey) => (
    <th scope="col" aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className="link-button"
        disabled={selecting !== null}
        onClick={() =>
          setSort((current) => ({
            key,
            // A new column starts in its natural order: names A to Z, the largest and the newest first.
            descending: current.key === key ? !current.descending : key !== 'name',
          }))
        }
      >
        {t(`library.media.columns.${key}`)}
      </button>
    </th>
  );

  let body;
  if (library.isLoading || (library.isFetching && !library.data)) {
    body = <LoadingScreen messageKey="library.media.loading" />;
  } else if (library.isError) {
    body = (
      <div className="section-error" role="alert">
        <p>{t('library.media.errors.loadFailed')}</p>
        <button type="button" className="button button--ghost" onClick={() => void library.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  } else if ((library.data?.tracks ?? []).length === 0) {
    body = <p className="muted">{t(hidden > 0 ? 'library.media.noneFits' : 'library.media.empty')}</p>;
  } else if (rows.length === 0) {
    body = <p className="muted">{t('library.media.noResults', { search: search.trim() })}</p>;
  } else {
    body = (
      <div className="table-wrap">
        <table aria-describedby={`${searchId}-hint`}>
          <thead>
            <tr>
              {header('name')}
              {header('size')}
              {header('date')}
            </tr>
          </thead>
          <tbody>
            {rows.map((track) => (
              <tr key={track.id} className={selecting ? 'is-disabled' : undefined}>
                <td>
                  <button
                    type="button"
                    className="media-library__pick"
                    disabled={selecting !== null}
                    onClick={() => void choose(track)}
                  >
                    {displayName(track.filename)}
                  </button>
                </td>
                <td>{size(track.fileSize)}</td>
                <td>{formatDate(track.createdAt, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <Modal
      title={t('library.media.title')}
      onClose={selecting ? () => undefined : onClose}
      className="modal--xl media-library"
    >
      <p className="muted" id={`${searchId}-hint`}>
        {t('library.media.intro', { service: t(`services.${service}.name`, { defaultValue: service }) })}
      </p>
      {hidden > 0 && (library.data?.tracks ?? []).length > 0 && (
        <p className="muted">{t('library.media.hidden', { count: hidden })}</p>
      )}
      <div className="field library__search">
        <label htmlFor={searchId}>{t('library.media.search')}</label>
        <input
          id={searchId}
          type="search"
          value={search}
          disabled={selecting !== null}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {error && (
        <p className="field__error" role="alert">
          {t(error.key, { limitMb: error.limitMb ?? '', limitMinutes: error.limitMinutes ?? '' })}
        </p>
      )}
      <div className="media-library__body" aria-busy={selecting !== null || undefined}>
        {body}
        {selecting && (
          <div className="media-library__overlay" role="status">
            <span className="spinner" aria-hidden="true" />
            <span>{t('library.media.selecting', { name: displayName(selecting.filename) })}</span>
          </div>
        )}
      </div>
      <div className="modal__actions">
        <button type="button" className="button button--ghost" disabled={selecting !== null} onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}
