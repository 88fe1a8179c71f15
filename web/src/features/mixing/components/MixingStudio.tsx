import '../model/texts';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';
import { errorStatus } from '../../../lib/api';
import { useAppSelector } from '../../../lib/hooks';
import { useSessionManager } from '../../../lib/session/SessionProvider';
import { useNow } from '../../../lib/useNow';
import {
  fetchMixAudio,
  type MixPreview,
  type MixSession,
  useCancelMixMutation,
  useGetMixPreviewQuery,
  useGetMixSessionQuery,
  useGetMixStatusQuery,
  useRequestMixMutation,
  useUpdateMixSessionMutation,
  useUpdateMixTrackMutation,
} from '../api/mixing';
import { MixingBoard } from './MixingBoard';
import { MixSetup } from './MixSetup';
import { MIN_FILES, MIX_STEPS, mixPercent, offeredGroup, stepStates, type TrackSettings } from '../model/mixing';
import { SettingsQueue } from '../model/settingsQueue';
import { TrackSettingsPanel } from './TrackSettingsPanel';
import './mixing.css';

/** What the studio page gives the mixing studio: the open session (in the address) and how to change it. */
export interface MixingStudioProps {
  sessionId: string | null;
  onSession(sessionId: string | null): void;
  /**
   * The unlock block (the payment screens, another feature's, composed by the app) shown under a locked mix:
   * `POST /api/audio/track/{sessionId}/master` with a credit or a single-track payment; `onUnlocked` reloads the mix.
   */
  unlock?: (mix: { sessionId: string; name: string; service: 'AI_MIXING'; onUnlocked(): void }) => ReactNode;
}

/**
 * The mixing studio (spec §4, "Mixing flow"): the upload card, then the session: its progress while the mix is made,
 * the board once it is, and the settings to change and mix again.
 */
export function MixingStudio({ sessionId, onSession, unlock }: MixingStudioProps) {
  if (!sessionId) return <MixSetup onCreated={onSession} />;
  return <MixSessionView key={sessionId} sessionId={sessionId} onNew={() => onSession(null)} unlock={unlock} />;
}

/** Status poll while the socket is down (spec §9), and a slower safety poll while it is up. */
const STATUS_POLL_MS = 1000;
const SAFETY_POLL_MS = 5000;

function MixSessionView({
  sessionId,
  onNew,
  unlock,
}: {
  sessionId: string;
  onNew(): void;
  unlock: MixingStudioProps['unlock'];
}) {
  const { t } = useTranslation('mixing');
  const tokens = useSessionManager();
  const fetchAudio = useCallback((url: string) => fetchMixAudio(tokens, url), [tokens]);
  const query = useGetMixSessionQuery(sessionId, { refetchOnMountOrArgChange: true });
  const mix = query.data?.session;
  const status = mix?.status;
  const preview = useGetMixPreviewQuery(sessionId, { skip: status !== 'COMPLETED' });
  // The last board heard, kept while the settings change (the server drops the old mix at the first change).
  const [lastBoard, setLastBoard] = useState<MixPreview | null>(null);
  useEffect(() => {
    if (preview.data?.status === 'COMPLETED' && preview.data.tracks.length > 0) setLastBoard(preview.data);
  }, [preview.data]);

  if (query.isError) {
    return (
      <div className="studio-message">
        <p className="studio-banner" role="alert">
          {t(errorStatus(query.error) === 404 ? 'errors.notFound' : 'errors.load')}
        </p>
        <button type="button" className="button button--ghost" onClick={onNew}>
          {t('session.new')}
        </button>
      </div>
    );
  }
  if (!mix) return <p className="muted">{t('session.loading')}</p>;

  const board = status === 'COMPLETED' ? (preview.data ?? lastBoard) : lastBoard;
  return (
    <div className="mix-session">
      {status === 'PROCESSING' ? (
        <MixProgress session={mix} onDone={() => void query.refetch()} />
      ) : (
        <>
          {status === 'FAILED' && (
            <p className="studio-banner" role="alert">
              {mix.error ? t('errors.mixFailedWith', { message: mix.error }) : t('errors.mixFailed')}
            </p>
          )}
          {board && board.tracks.length > 0 && (
            <>
              {status !== 'COMPLETED' && (
                <p className="stems-board__notice" role="status">
                  {t('session.changed')}
                </p>
              )}
              <MixingBoard
                sessionId={sessionId}
                name={mix.name}
                unlocked={mix.unlocked && status === 'COMPLETED'}
                rows={board.tracks}
                fetchAudio={fetchAudio}
              />
            </>
          )}
          {status === 'COMPLETED' && !board && <p className="muted">{t('session.loading')}</p>}
          {status === 'COMPLETED' &&
            !mix.unlocked &&
            unlock?.({ sessionId, name: mix.name, service: 'AI_MIXING', onUnlocked: () => void query.refetch() })}
          <MixSettings session={mix} />
        </>
      )}
    </div>
  );
}

/** The settings of an uploaded mix: changes sent 300 ms after the last one, then "mix again". */
function MixSettings({ session }: { session: MixSession }) {
  const { t } = useTranslation('mixing');
  const [updateTrack] = useUpdateMixTrackMutation();
  const [updateSession] = useUpdateMixSessionMutation();
  const [requestMix, requestState] = useRequestMixMutation();
  const [overrides, setOverrides] = useState<Record<string, Partial<TrackSettings>>>({});
  const [failed, setFailed] = useState<string | null>(null);
  const sends = useRef(new Set<Promise<unknown>>());

  const track = useCallback(
    (promise: Promise<unknown>) => {
      sends.current.add(promise);
      void promise.finally(() => sends.current.delete(promise));
      return promise;
    },
    [sends],
  );

  const queue = useMemo(
    () =>
      new SettingsQueue((trackId, changes) => {
        track(
          updateTrack({ trackId, sessionId: session.id, changes })
            .unwrap()
            .catch(() => setFailed('errors.updateTrack')),
        );
      }),
    // One queue per session (the mutation trigger and `track` are stable).
    [session.id, track, updateTrack],
  );
  useEffect(() => () => queue.flushAll(), [queue]);

  const tracks = session.tracks.map((entry) => ({
    key: entry.trackId,
    name: entry.filename,
    settings: {
      instrumentGroup: offeredGroup(entry.instrumentGroup),
      presenceSetting: entry.presenceSetting,
      panPreference: entry.panPreference,
      reverbPreference: entry.reverbPreference,
      ...overrides[entry.trackId],
    },
  }));

  const mixAgain = async () => {
    setFailed(null);
    queue.flushAll();
    await Promise.all([...sends.current]);
    try {
      await requestMix(session.id).unwrap();
      setOverrides({});
    } catch {
      setFailed('errors.processMix');
    }
  };

  const enough = session.tracks.length >= MIN_FILES;
  return (
    <section className="mix-adjust card" aria-labelledby={`mix-${session.id}-adjust`}>
      <h3 id={`mix-${session.id}-adjust`}>{t('session.adjustTitle')}</h3>
      <p className="muted">{t(session.status === 'COMPLETED' ? 'session.adjustHint' : 'session.readyHint')}</p>
      {failed && (
        <p className="studio-banner" role="alert">
          {t(failed)}
        </p>
      )}
      <TrackSettingsPanel
        tracks={tracks}
        style={session.mixingStyle}
        sampleRate={session.sampleRate}
        onTrackChange={(trackId, change) => {
          setOverrides((current) => ({ ...current, [trackId]: { ...current[trackId], ...change } }));
          queue.change(trackId, change);
        }}
        onSessionChange={(change) => {
          const first = session.tracks[0];
          if (!first) return;
          track(
            updateSession({
              sessionId: session.id,
              updates: [{ trackId: first.trackId }],
              ...(change.style ? { musicalStyle: change.style } : {}),
              ...(change.sampleRate ? { sampleRate: change.sampleRate } : {}),
            })
              .unwrap()
              .catch(() => setFailed('errors.updateTrack')),
          );
        }}
      />
      {!enough && (
        <p className="field__error" role="alert">
          {t('problems.minimumFiles', { min: MIN_FILES })}
        </p>
      )}
      {session.status !== 'COMPLETED' && (
        <div className="upload-card__actions">
          <button
            type="button"
            className="button"
            disabled={!enough || requestState.isLoading}
            onClick={() => void mixAgain()}
          >
            {t(session.status === 'FAILED' ? 'session.retry' : 'session.mixAgain')}
          </button>
        </div>
      )}
    </section>
  );
}

/** The mix being made (spec §4): a bar, the six steps, and cancel behind a confirmation. */
function MixProgress({ session, onDone }: { session: MixSession; onDone(): void }) {
  const { t } = useTranslation('mixing');
  const connected = useAppSelector((state) => state.realtime.status === 'connected');
  const { data } = useGetMixStatusQuery(session.id, {
    pollingInterval: connected ? SAFETY_POLL_MS : STATUS_POLL_MS,
    refetchOnMountOrArgChange: true,
  });
  const now = useNow(500);
  const startedAt = useRef(Date.now());
  const shown = useRef(0);
  const [confirming, setConfirming] = useState(false);
  const [cancel, cancelState] = useCancelMixMutation();
  const [cancelFailed, setCancelFailed] = useState(false);
  const status = data?.status ?? session.status;
  const percent = mixPercent({
    status,
    startedAt: startedAt.current,
    now,
    engine: typeof data?.progress === 'number' ? data.progress : null,
    previous: shown.current,
  });
  shown.current = percent;
  const states = stepStates(percent);

  const doneRef = useRef(onDone);
  doneRef.current = onDone;
  useEffect(() => {
    if (status === 'PROCESSING') return undefined;
    const timer = setTimeout(() => doneRef.current(), status === 'COMPLETED' ? 500 : 0);
    return () => clearTimeout(timer);
  }, [status]);

  const abort = async () => {
    setCancelFailed(false);
    try {
      await cancel(session.id).unwrap();
      setConfirming(false);
      doneRef.current();
    } catch {
      setCancelFailed(true);
      setConfirming(false);
    }
  };

  return (
    <div className="processing">
      <p className="processing__file">{t('progress.title', { name: session.name })}</p>
      <div
        className="progress"
        role="progressbar"
        aria-label={t('progress.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="processing__numbers">
        <span>{t('setup.percent', { percent })}</span>
      </p>
      <ol className="steps">
        {MIX_STEPS.map((step, index) => (
          <li key={step} className={`steps__item steps__item--${states[index]}`}>
            <span className="steps__mark" aria-hidden="true" />
            <span>{t(`steps.${step}`)}</span>
            <span className="visually-hidden">{t(`progress.state.${states[index]}`)}</span>
          </li>
        ))}
      </ol>
      {cancelFailed && (
        <p className="studio-banner" role="alert">
          {t('errors.cancel')}
        </p>
      )}
      <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
        {t('progress.abort')}
      </button>
      {confirming && (
        <Modal title={t('progress.abortTitle')} onClose={() => setConfirming(false)}>
          <p>{t('progress.abortText')}</p>
          <div className="modal__actions">
            <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
              {t('progress.no')}
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={cancelState.isLoading}
              onClick={() => void abort()}
            >
              {t('progress.yes')}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
