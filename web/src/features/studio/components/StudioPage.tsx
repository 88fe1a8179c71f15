import type { BillingService, TrackOptions, TrackService } from '@kora/contracts';
import { skipToken } from '@reduxjs/toolkit/query';
import { type ComponentType, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../../lib/hooks';
import { STORAGE_KEYS } from '../../../lib/session/storage';
import { useSessionManager } from '../../../lib/session/SessionProvider';
import type { SendProgress } from '../../../lib/resumable-upload';
import { type UploadAnswer, uploadTrack } from '../api/transfer';
import { type UploadingState } from './UploadCard';
import { tracksApi, useGetTrackQuery } from '../api/tracks';
import type { UploadMessage } from '../model/errors';
import { isInProgress } from '@kora/contracts';
import { isResult, uploadRingPercent } from '../model/progress';
import { initialService, isSelectableService, type ServiceId } from '../model/services';
import { FailedJob, ProcessingView, ResultView } from './lazyViews';
import { ServiceList } from './ServiceList';
import { type UploadAccess, UploadCard } from './UploadCard';

interface StudioPageProps {
  /** The page's own class besides `studio` (home, dashboard). */
  className: string;
  /** The page's title block (home greeting or dashboard title). */
  header: ReactNode;
  /** What follows the work area (the service status on home, recent works on the dashboard). */
  footer?: ReactNode;
  /** The demo and media library buttons (another feature's), given by the app. */
  TrackSources?: ComponentType<TrackSourcesProps>;
  /** The recent tracks list (another feature's), given by the app. */
  RecentTracks?: ComponentType<RecentTracksProps>;
  /** The payment unlock screen on a locked result (another feature's), given by the app. */
  ResultUnlock?: ComponentType<ResultUnlockProps>;
  /** The mixing studio (another feature's), given by the app: shown for `?service=AI_MIXING` or `?mix={id}`. */
  MixingStudio?: ComponentType<MixingStudioProps>;
  /**
   * Whether a new job of a service may start, from the credits (the billing feature's), given by the app as a hook:
   * the same function on every render. Without it every service is open.
   */
  useUploadAccess?(service: string): UploadAccess;
}

const alwaysOpen = (): UploadAccess => 'open';

/**
 * The message for a refused upload. The error-code table behind it loads when a refusal comes, not with the first
 * route (docs/benchmarks.md, "Web client"); if even that load fails, the upload simply failed.
 */
async function refusalMessage(answer: UploadAnswer | null): Promise<UploadMessage> {
  try {
    return (await import('../model/errors')).uploadMessage(answer);
  } catch {
    return { place: 'banner', key: 'upload.errors.failed' };
  }
}

/** What the app's payment unlock screen gets: the open result, and how to show it once its master is ready. */
export interface ResultUnlockProps {
  track: { id: string; service: BillingService; status: string; filename: string; isDemo: boolean; unlocked: boolean };
  /** The master is ready: the studio refreshes the track and the recent list. */
  onUnlocked(): void;
}

/** What the app's mixing studio gets: the open mixing session (in the address) and how to change it. */
export interface MixingStudioProps {
  sessionId: string | null;
  onSession(sessionId: string | null): void;
}

/** What the app's demo and media library buttons get: the service, the card's options, and how to open a track. */
export interface TrackSourcesProps {
  service: TrackService;
  /** The upload card's choices for the job (mode, preset, intensity, target), as the upload sends them. */
  options: Omit<TrackOptions, 'service'>;
  /** False when the service's credits are spent: only the demo stays open, not a new job from the media library. */
  canStart: boolean;
  onOpen(track: { id: string }): void;
  onStarted(track: { id: string }): void;
}

/** What the app's recent tracks list gets. */
export interface RecentTracksProps {
  onOpen(track: { id: string }): void;
  /** Opens a mixing session listed beside the tracks (`?mix={id}`). */
  onOpenMix?(sessionId: string): void;
  activeTrackId?: string;
  refreshSignal?: number;
}

/**
 * The studio (spec §2, home and dashboard): the service selector, then the work area for the chosen service:
 * upload card, upload ring, processing view, result. The open track is in the address (`?track=`), so a reload
 * in the middle of processing comes back to it.
 */
/**
 * The upload ring's percent for what the sending says: compressing fills the first tenth of the upload's share, then
 * sending the rest (all of it when nothing was compressed). A pause says nothing of the bytes: the caller keeps the
 * highest percent shown, so the ring never goes back.
 */
function sendingPercent(progress: SendProgress, compressed: boolean): number {
  if (progress.phase === 'paused' || progress.total <= 0) return 0;
  const fraction = progress.done / progress.total;
  if (progress.phase === 'compressing') return uploadRingPercent(0.1 * fraction, 1);
  return uploadRingPercent(compressed ? 0.1 + 0.9 * fraction : fraction, 1);
}

export function StudioPage({
  className,
  header,
  footer,
  TrackSources,
  RecentTracks,
  ResultUnlock,
  MixingStudio,
  useUploadAccess = alwaysOpen,
}: StudioPageProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const session = useSessionManager();
  const [params, setParams] = useSearchParams();
  const trackId = params.get('track');
  const [service, setService] = useState<ServiceId>(() =>
    initialService(params.get('service'), localStorage.getItem(STORAGE_KEYS.selectedService)),
  );
  const [uploading, setUploading] = useState<UploadingState | null>(null);
  // Bumped when a job starts here, so the recent list shows it at once.
  const [refreshSignal, setRefreshSignal] = useState(0);
  const workArea = useRef<HTMLDivElement>(null);
  // AI mixing stays "coming soon" in the picker (spec §1), but its screens open from the address.
  const mixSession = params.get('mix');
  const mixing = MixingStudio !== undefined && (params.get('service') === 'AI_MIXING' || mixSession !== null);
  const trackQuery = useGetTrackQuery(trackId && !mixing ? trackId : skipToken);
  const track = trackId && trackQuery.data?.id === trackId ? trackQuery.data : null;

  useEffect(() => {
    localStorage.setItem(STORAGE_KEYS.selectedService, service);
  }, [service]);

  // The open track decides the service shown.
  useEffect(() => {
    if (track && isSelectableService(track.service)) setService(track.service);
  }, [track]);

  const openTrack = useCallback(
    (id: string | null) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set('track', id);
          else next.delete('track');
          next.delete('service');
          return next;
        },
        { replace: id === null },
      );
    },
    [setParams],
  );

  const choose = (next: ServiceId) => {
    setService(next);
    if (track && track.service !== next) openTrack(null);
    else if (params.has('service') || params.has('mix')) {
      // The address's preselection is spent: a reload keeps the choice just made (from local storage).
      setParams(
        (current) => {
          const rest = new URLSearchParams(current);
          rest.delete('service');
          rest.delete('mix');
          return rest;
        },
        { replace: true },
      );
    }
    // The work area comes into view (spec §2); jsdom has no scrolling.
    workArea.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  };

  const openMix = useCallback(
    (id: string | null) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('track');
          if (id) {
            next.set('mix', id);
            next.delete('service');
          } else {
            next.delete('mix');
            next.set('service', 'AI_MIXING');
          }
          return next;
        },
        { replace: id === null },
      );
    },
    [setParams],
  );

  const start = async (file: File, fields: TrackOptions, reference: File | null): Promise<UploadMessage | null> => {
    setUploading({ filename: file.name, percent: 0 });
    // Whether the file was compressed before sending: compressing then takes the first tenth of the ring's share.
    let compressed = false;
    try {
      const answer = await uploadTrack(session, {
        file,
        fields,
        reference,
        onProgress: (progress) => {
          if (progress.phase === 'compressing') compressed = true;
          const percent = sendingPercent(progress, compressed);
          setUploading((previous) => ({
            filename: file.name,
            percent: Math.max(previous?.percent ?? 0, percent),
            progress,
          }));
        },
      });
      const track = answer.status === 201 && answer.body && !('code' in answer.body) ? answer.body : null;
      if (track) {
        openTrack(track.id);
        setRefreshSignal((signal) => signal + 1);
        return null;
      }
      return await refusalMessage(answer);
    } catch {
      return refusalMessage(null);
    } finally {
      setUploading(null);
    }
  };

  const refreshTrack = useCallback(() => {
    if (trackId) dispatch(tracksApi.util.invalidateTags([{ type: 'Track', id: trackId }]));
  }, [dispatch, trackId]);

  const status = track?.status ?? null;
  const processing = status !== null && isInProgress(status);
  const busy = uploading !== null || processing;
  const uploadService = service === 'AI_MIXING' ? 'AI_MASTERING' : service;
  const access = useUploadAccess(uploadService);

  // One short line for screen readers when the phase changes (the work area itself changes too much to be live).
  const announcement = uploading
    ? t('studio:live.uploading', { name: uploading.filename })
    : !track
      ? ''
      : processing
        ? t('studio:live.processing', { name: track.filename })
        : isResult(track.status)
          ? t('studio:live.ready', { name: track.filename })
          : t('studio:live.failed', { name: track.filename });

  let body: ReactNode;
  if (mixing && MixingStudio) {
    body = <MixingStudio sessionId={mixSession} onSession={openMix} />;
  } else if (uploading || !trackId) {
    body = (
      <UploadCard
        key={uploadService}
        service={uploadService}
        uploading={uploading}
        onStart={start}
        access={access}
        sources={
          TrackSources &&
          ((options) => (
            <TrackSources
              service={uploadService}
              options={options}
              canStart={access === 'open'}
              onOpen={(opened) => openTrack(opened.id)}
              onStarted={(started) => {
                openTrack(started.id);
                setRefreshSignal((signal) => signal + 1);
              }}
            />
          ))
        }
      />
    );
  } else if (trackQuery.isError) {
    body = (
      <div className="studio-message">
        <p role="alert">{t('studio:errors.trackMissing')}</p>
      </div>
    );
  } else if (!track) {
    body = <p className="muted">{t('app.loading')}</p>;
  } else if (processing) {
    body = <ProcessingView key={track.id} track={track} onFinished={refreshTrack} onAborted={() => openTrack(null)} />;
  } else if (isResult(track.status)) {
    body = (
      <ResultView
        track={track}
        access={access}
        onOpenTrack={(id) => {
          openTrack(id);
          setRefreshSignal((signal) => signal + 1);
        }}
        unlock={
          ResultUnlock && (
            <ResultUnlock
              track={track}
              onUnlocked={() => {
                refreshTrack();
                setRefreshSignal((signal) => signal + 1);
              }}
            />
          )
        }
      />
    );
  } else {
    body = <FailedJob errorCode={track.errorCode} />;
  }

  return (
    <section className={`studio ${className}`}>
      {header}
      <h2>{t('dashboard.pickService')}</h2>
      <ServiceList selected={mixing ? null : service} onSelect={choose} disabled={busy} mixingLink={!!MixingStudio} />
      <div ref={workArea} className="card work-area">
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
        <div className="work-area__head">
          <div>
            <h2>{t(`services.${mixing ? 'AI_MIXING' : service}.name`)}</h2>
            <p className="muted">{t(`services.${mixing ? 'AI_MIXING' : service}.description`)}</p>
          </div>
          {mixing && mixSession && (
            <button type="button" className="button button--ghost" onClick={() => openMix(null)}>
              {t('studio:newMix')}
            </button>
          )}
          {!mixing && trackId && !busy && (
            <button type="button" className="button button--ghost" onClick={() => openTrack(null)}>
              {t('studio:newUpload')}
            </button>
          )}
        </div>
        {!mixing && track && !busy && (
          <p className="work-area__title">{t('studio:recentWork', { name: track.filename })}</p>
        )}
        <Suspense fallback={<p className="muted">{t('app.loading')}</p>}>{body}</Suspense>
      </div>
      {RecentTracks && (
        <RecentTracks
          onOpen={(opened) => openTrack(opened.id)}
          onOpenMix={MixingStudio ? (id) => openMix(id) : undefined}
          activeTrackId={trackId ?? undefined}
          refreshSignal={refreshSignal}
        />
      )}
      {footer}
    </section>
  );
}
