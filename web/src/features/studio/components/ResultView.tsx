import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Modal } from '../../../components/Modal';
import { errorBody, errorStatus } from '../../../lib/api';
import { useSessionManager } from '../../../lib/session/SessionProvider';
import { sameUploadInMode, useLazyGetStemSeparationsOfQuery, useSeparateInModeMutation } from '../api/stemModes';
import { fetchAudio } from '../api/transfer';
import type { StemMode, Track } from '@kora/contracts';
import { useGetReportQuery } from '../api/tracks';
import { AbCompare } from './AbCompare';
import { levelMatchedGains } from '../model/levelMatch';
import { pauseCurrent, subscribe } from '../model/nowPlaying';
import { Player } from './Player';
import { StemsBoard } from './StemsBoard';
import { VideoResult } from './VideoResult';
import { Downloads } from './Downloads';
import { uploadMessage } from '../model/errors';
import { EmailPanel } from './EmailPanel';
import { ReportView } from './ReportView';
import { plansLink, type UploadAccess } from './UploadCard';

interface ResultViewProps {
  track: Track;
  unlock?: ReactNode;
  /** Whether a new job of the track's service may start (the stems board's other modes). */
  access?: UploadAccess;
  /** Opens another track in the studio (another stem mode of the same upload). */
  onOpenTrack?(id: string): void;
}

/**
 * The result of a track (spec §2): players, A/B, the report, downloads and e-mail, by service; `unlock` is the
 * payment unlock screen the app gives (options on a locked result, the thank-you banner once unlocked).
 */
export function ResultView({ track, unlock, access = 'open', onOpenTrack }: ResultViewProps) {
  const session = useSessionManager();
  const load = useCallback((url: string) => fetchAudio(session, url), [session]);

  if (track.service === 'STEM_SEPARATION') {
    return (
      <div className="result">
        {unlock}
        <StemsResult track={track} fetchAudio={load} access={access} onOpenTrack={onOpenTrack} />
        <EmailPanel trackId={track.id} service={track.service} unlocked={track.unlocked} />
      </div>
    );
  }
  if (track.isVideo && track.previewUrl) {
    return (
      <div className="result">
        {unlock}
        <VideoPart previewUrl={track.previewUrl} originalUrl={track.originalUrl} fetchMedia={load} />
        <Downloads track={track} fetchAudio={load} />
        <EmailPanel trackId={track.id} service={track.service} unlocked={track.unlocked} />
      </div>
    );
  }
  return <AudioResult track={track} fetchAudio={load} unlock={unlock} />;
}

function AudioResult({
  track,
  fetchAudio: load,
  unlock,
}: {
  track: Track;
  fetchAudio(url: string): Promise<Blob>;
  unlock?: ReactNode;
}) {
  const { t } = useTranslation();
  const { data: report } = useGetReportQuery(track.id);
  const resultLabel = t(track.service === 'AI_MASTERING' ? 'studio:result.mastered' : 'studio:result.enhanced');
  const gains = useMemo(
    () => levelMatchedGains(report?.before?.integratedLufs, report?.after?.integratedLufs),
    [report],
  );
  const compareUrl = track.masterUrl ?? track.previewUrl;
  const offsetSec = track.masterUrl ? 0 : (report?.decisions?.preview?.startSec ?? 0);
  return (
    <div className="result">
      <p className={`result__status${track.unlocked ? ' result__status--final' : ''}`}>
        {t(track.unlocked ? 'studio:result.final' : 'studio:result.preview')}
      </p>
      {unlock}
      <div className="players">
        <Player label={t('studio:result.original')} url={track.originalUrl} fetchAudio={load} />
        {track.previewUrl && (
          <Player label={t('studio:result.previewPlayer')} url={track.previewUrl} fetchAudio={load} />
        )}
        {track.masterUrl && <Player label={resultLabel} url={track.masterUrl} fetchAudio={load} />}
      </div>
      {compareUrl && report && (
        <AbCompare
          originalUrl={track.originalUrl}
          resultUrl={compareUrl}
          offsetSec={offsetSec}
          gains={gains}
          resultLabel={resultLabel}
          fetchAudio={load}
        />
      )}
      {report && <ReportView report={report} resultLabel={resultLabel} />}
      <Downloads track={track} fetchAudio={load} />
      <EmailPanel trackId={track.id} service={track.service} unlocked={track.unlocked} />
    </div>
  );
}

/** A counter that moves whenever a player of the store starts: the board and the video pause on it. */
function usePauseSignal(): number {
  const [pauseSignal, setPauseSignal] = useState(0);
  useEffect(() => subscribe((playing) => (playing ? setPauseSignal((n) => n + 1) : undefined)), []);
  return pauseSignal;
}

function VideoPart(props: { previewUrl: string; originalUrl: string; fetchMedia(url: string): Promise<Blob> }) {
  const pauseSignal = usePauseSignal();
  return <VideoResult {...props} onPlay={pauseCurrent} pauseSignal={pauseSignal} />;
}

/**
 * The stems board, kept to one player at a time with the rest of the page. Its mode buttons open the same upload
 * separated in another mode: the user's own separation if there is one, else, once confirmed, a new one (a new job
 * from the same original, with its own preview and unlock) whose processing view opens as any job's.
 */
function StemsResult({
  track,
  fetchAudio: load,
  access,
  onOpenTrack,
}: {
  track: Track;
  fetchAudio(url: string): Promise<Blob>;
  access: UploadAccess;
  onOpenTrack?(id: string): void;
}) {
  const { t } = useTranslation();
  const pauseSignal = usePauseSignal();
  const mode = track.mode ?? 'vocals';
  const [findSeparations] = useLazyGetStemSeparationsOfQuery();
  const [separate, separation] = useSeparateInModeMutation();
  const [looking, setLooking] = useState(false);
  const [asked, setAsked] = useState<StemMode | null>(null);
  const [problem, setProblem] = useState<{ key: string; limitMb?: number } | null>(null);

  const changeMode = async (next: StemMode) => {
    if (!onOpenTrack) return;
    setProblem(null);
    setLooking(true);
    try {
      const found = sameUploadInMode(track, await findSeparations(track.filename).unwrap(), next);
      if (found) onOpenTrack(found.id);
      else setAsked(next);
    } catch {
      setProblem({ key: 'stems:switch.lookupFailed' });
    } finally {
      setLooking(false);
    }
  };

  const startSeparation = async () => {
    if (!asked || !onOpenTrack) return;
    try {
      const created = await separate({ id: track.id, mode: asked }).unwrap();
      setAsked(null);
      onOpenTrack(created.id);
    } catch (error) {
      setAsked(null);
      const status = errorStatus(error);
      const refusal = uploadMessage({ status: typeof status === 'number' ? status : 0, body: errorBody(error) });
      setProblem({ ...refusal, key: `studio:${refusal.key}` });
    }
  };

  const modeName = (value: StemMode) => t(`stems:mode.${value}`);
  return (
    <>
      {track.isDemo && <p className="muted">{t('stems:switch.demo')}</p>}
      {problem && (
        <p className="studio-banner" role="alert">
          {t(problem.key, { limitMb: problem.limitMb })}
        </p>
      )}
      <StemsBoard
        trackId={track.id}
        filename={track.filename}
        mode={mode}
        locked={!track.unlocked}
        stems={track.stems}
        originalUrl={track.originalUrl}
        fetchAudio={load}
        onModeChange={track.isDemo || !onOpenTrack || looking ? undefined : (next) => void changeMode(next)}
        onPlay={pauseCurrent}
        pauseSignal={pauseSignal}
      />
      {asked && (
        <Modal title={t('stems:switch.title', { mode: modeName(asked) })} onClose={() => setAsked(null)}>
          {access === 'open' ? (
            <p>{t('stems:switch.body', { name: track.filename, mode: modeName(asked) })}</p>
          ) : (
            <p>{t('stems:switch.noCredits')}</p>
          )}
          <div className="modal__actions">
            <button type="button" className="button button--ghost" onClick={() => setAsked(null)}>
              {t('stems:switch.cancel')}
            </button>
            {access === 'open' ? (
              <button
                type="button"
                className="button"
                disabled={separation.isLoading}
                onClick={() => void startSeparation()}
              >
                {t('stems:switch.confirm')}
              </button>
            ) : (
              <Link className="button" to={plansLink(track.service)}>
                {t('studio:upload.subscribe')}
              </Link>
            )}
          </div>
        </Modal>
      )}
    </>
  );
}
