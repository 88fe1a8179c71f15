import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { Modal } from '../../../components/Modal';
import { Pagination } from '../../../components/Pagination';
import { formatDate } from '../../../lib/format';
import { useAppDispatch } from '../../../lib/hooks';
import { pageCount } from '../../../lib/pagination';
import { toastShown } from '../../../lib/toast';
import { useReload } from '../../../lib/useReload';
import { useWindowWidth } from '../../../lib/useWindowWidth';
import { isInProgress, isMixCard, type MixCard, type Track } from '@kora/contracts';
import { useCancelTrackMutation, useDeleteTrackMutation, useGetRecentTracksQuery } from '../api/library';
import { canOpen, displayName, mixStatusKey, RECENT_PAGE_SIZE, statusKey, stemModeKey } from '../model/tracks';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import './library.css';

/** At this width or less the list view is hidden and the grid forced (spec §2). */
export const LIST_VIEW_MIN_WIDTH = 768;
export const SEARCH_DELAY_MS = 300;
const VIEW_KEY = 'recentTracksView';
type View = 'grid' | 'list';

export interface RecentTracksProps {
  onOpen(track: Track): void;
  /** Opens a mixing session (the studio's `?mix={id}` address); without it mixing cards show no open button. */
  onOpenMix?(sessionId: string): void;
  /** The track open in the work area: marked in the list. */
  activeTrackId?: string;
  /** Bumped by the work area (a job started, a result unlocked) to refetch the list. */
  refreshSignal?: number;
}

function storedView(): View {
  return localStorage.getItem(VIEW_KEY) === 'list' ? 'list' : 'grid';
}

/**
 * The recent tracks (spec §2): search on the file name, refresh, grid or list, 4 per page with the spec's
 * pagination. A track in progress shows cancel instead of open; a failed or cancelled one cannot be opened; deleting
 * asks first. A stem separation shows its mode. Mixing sessions are listed too, each with its own card (name, number
 * of tracks, status, paid or not) that opens the mix. Demo tracks are not listed. The list follows `track.status`
 * and `mix.status` on the socket.
 */
export function RecentTracks({ onOpen, onOpenMix, activeTrackId, refreshSignal = 0 }: RecentTracksProps) {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const titleId = useId();
  const width = useWindowWidth();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DELAY_MS);
  // The page belongs to the search it was chosen in: a new search starts at page 1 in the same render.
  const [paging, setPaging] = useState({ search, page: 1 });
  const page = paging.search === search ? paging.page : 1;
  const setPage = (next: number) => setPaging({ search, page: next });
  const [chosenView, setChosenView] = useState<View>(storedView);
  const [pendingDelete, setPendingDelete] = useState<Track | null>(null);
  const list = useGetRecentTracksQuery({ page, limit: RECENT_PAGE_SIZE, search });
  const [deleteTrack, deletion] = useDeleteTrackMutation();
  const [cancelTrack, cancellation] = useCancelTrackMutation();
  useReload(refreshSignal, () => void list.refetch());

  const canList = width > LIST_VIEW_MIN_WIDTH;
  const view: View = canList ? chosenView : 'grid';
  const pages = pageCount(list.data?.totalCount ?? 0, RECENT_PAGE_SIZE);
  const tracks = (list.data?.tracks ?? []).filter((track) => !track.isDemo);

  // After a deletion the last page may be gone: show the one before it.
  useEffect(() => {
    if (list.data && page > pages) setPaging({ search, page: pages });
  }, [list.data, page, pages, search]);

  const chooseView = (next: View) => {
    setChosenView(next);
    localStorage.setItem(VIEW_KEY, next);
  };

  const confirmDelete = async () => {
    if (!pendingDelete) return;
    try {
      await deleteTrack(pendingDelete.id).unwrap();
      setPendingDelete(null);
    } catch (error) {
      console.error('Delete failed', error);
      dispatch(toastShown({ kind: 'error', messageKey: 'library.errors.deleteFailed' }));
    }
  };

  const cancel = async (track: Track) => {
    try {
      await cancelTrack(track.id).unwrap();
    } catch (error) {
      console.error('Failed to cancel processing', error);
      dispatch(toastShown({ kind: 'error', messageKey: 'library.errors.cancelFailed' }));
    }
  };

  let body;
  if (list.isLoading || (list.isFetching && !list.data)) {
    body = <LoadingScreen messageKey="library.loading" />;
  } else if (list.isError) {
    body = (
      <div className="section-error" role="alert">
        <p>{t('library.errors.loadFailed')}</p>
        <button type="button" className="button button--ghost" onClick={() => void list.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  } else if (tracks.length === 0) {
    body = <p className="muted library__empty">{t(search ? 'library.noResults' : 'library.noTracks', { search })}</p>;
  } else {
    body = (
      <ul className={`recent-tracks recent-tracks--${view}`} aria-busy={list.isFetching || undefined}>
        {tracks.map((track) => {
          if (isMixCard(track)) return <MixCardItem key={track.id} mix={track} onOpen={onOpenMix} />;
          const name = displayName(track.filename);
          const active = track.id === activeTrackId;
          const mode = track.service === 'STEM_SEPARATION' ? stemModeKey(track.mode) : null;
          return (
            <li
              key={track.id}
              className={`recent-track${active ? ' is-active' : ''}`}
              aria-current={active ? 'true' : undefined}
            >
              <div className="recent-track__info">
                <p className="recent-track__name" title={name}>
                  {name}
                </p>
                <p className="recent-track__meta muted">
                  {t(`services.${track.service}.name`, { defaultValue: track.service })} ·{' '}
                  {mode && <span className="recent-track__mode">{t(mode)} · </span>}
                  {formatDate(track.createdAt, i18n.language)}
                </p>
                <span className={`badge recent-track__status recent-track__status--${track.status.toLowerCase()}`}>
                  {t(statusKey(track.status))}
                </span>
              </div>
              <div className="recent-track__actions">
                {isInProgress(track.status) ? (
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    disabled={cancellation.isLoading}
                    aria-label={t('library.cancelNamed', { name })}
                    onClick={() => void cancel(track)}
                  >
                    {t('library.cancel')}
                  </button>
                ) : (
                  canOpen(track.status) && (
                    <button
                      type="button"
                      className="button button--small"
                      aria-label={t('library.openNamed', { name })}
                      onClick={() => onOpen(track)}
                    >
                      {t('library.open')}
                    </button>
                  )
                )}
                <button
                  type="button"
                  className="button button--small button--ghost"
                  aria-label={t('library.deleteNamed', { name })}
                  onClick={() => setPendingDelete(track)}
                >
                  {t('library.delete')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className="library" aria-labelledby={titleId}>
      <div className="library__header">
        <h2 id={titleId}>{t('library.title')}</h2>
        <div className="library__tools">
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => void list.refetch()}
            disabled={list.isFetching}
          >
            {t('library.refresh')}
          </button>
          {canList && (
            <div className="segmented" role="group" aria-label={t('library.viewLabel')}>
              {(['grid', 'list'] as const).map((option) => (
                <button key={option} type="button" aria-pressed={view === option} onClick={() => chooseView(option)}>
                  {t(`library.view.${option}`)}
                </button>
              ))}
            </div>
          )}
        </div>
      </div>
      <div className="field library__search">
        <label htmlFor={`${titleId}-search`}>{t('library.search')}</label>
        <input
          id={`${titleId}-search`}
          type="search"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
      </div>
      {body}
      {!list.isError && <Pagination page={Math.min(page, pages)} pages={pages} onPage={setPage} />}
      {pendingDelete && (
        <Modal title={t('library.deleteTitle')} onClose={() => setPendingDelete(null)}>
          <p>{t('library.deleteText', { name: displayName(pendingDelete.filename) })}</p>
          <div className="modal__actions">
            <button type="button" className="button button--ghost" onClick={() => setPendingDelete(null)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={deletion.isLoading}
              onClick={() => void confirmDelete()}
            >
              {t(deletion.isLoading ? 'library.deleting' : 'library.confirmDelete')}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}

/** A mixing session's card: its name, how many tracks it mixes, its status, paid or not, and open. */
function MixCardItem({ mix, onOpen }: { mix: MixCard; onOpen?: (sessionId: string) => void }) {
  const { t, i18n } = useTranslation();
  const name = displayName(mix.name);
  return (
    <li className="recent-track recent-track--mix">
      <div className="recent-track__info">
        <p className="recent-track__name" title={name}>
          {name}
        </p>
        <p className="recent-track__meta muted">
          {t('services.AI_MIXING.name')} · {t('library.mixTracks', { count: mix.trackCount })} ·{' '}
          {formatDate(mix.createdAt, i18n.language)}
        </p>
        <span className={`badge recent-track__status recent-track__status--${mix.status.toLowerCase()}`}>
          {t(mixStatusKey(mix.status))}
        </span>
        {mix.status === 'COMPLETED' && (
          <span className={`badge${mix.unlocked ? ' badge--accent' : ' badge--muted'}`}>
            {t(mix.unlocked ? 'library.mixPaid' : 'library.mixNotPaid')}
          </span>
        )}
      </div>
      {onOpen && (
        <div className="recent-track__actions">
          <button
            type="button"
            className="button button--small"
            aria-label={t('library.openMixNamed', { name })}
            onClick={() => onOpen(mix.id)}
          >
            {t('library.open')}
          </button>
        </div>
      )}
    </li>
  );
}
