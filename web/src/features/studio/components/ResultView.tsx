import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionManager } from '../../../lib/session/SessionProvider';
import { fetchAudio } from '../api/transfer';
import { type Track, useGetReportQuery } from '../api/tracks';
import { AbCompare } from '../player/AbCompare';
import { levelMatchedGains } from '../player/levelMatch';
import { pauseCurrent, subscribe } from '../player/nowPlaying';
import { Player } from '../player/Player';
import { STEM_MODES, type StemMode, StemsBoard } from '../stems/StemsBoard';
import { VideoResult } from '../video/VideoResult';
import { Downloads } from './Downloads';
import { EmailPanel } from './EmailPanel';
import { ReportView } from './ReportView';

/**
 * The result of a track (spec §2): players, A/B, the report, downloads and e-mail, by service; `unlock` is the
 * payment unlock screen the app gives (options on a locked result, the thank-you banner once unlocked).
 */
export function ResultView({ track, unlock }: { track: Track; unlock?: ReactNode }) {
  const session = useSessionManager();
  const load = useCallback((url: string) => fetchAudio(session, url), [session]);

  if (track.service === 'STEM_SEPARATION') {
    return (
      <div className="result">
        {unlock}
        <StemsResult track={track} fetchAudio={load} />
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

/** The stems board, kept to one player at a time with the rest of the page. */
function StemsResult({ track, fetchAudio: load }: { track: Track; fetchAudio(url: string): Promise<Blob> }) {
  const pauseSignal = usePauseSignal();
  const mode = (STEM_MODES as readonly string[]).includes(track.mode ?? '') ? (track.mode as StemMode) : 'vocals';
  return (
    <StemsBoard
      trackId={track.id}
      filename={track.filename}
      mode={mode}
      locked={!track.unlocked}
      stems={track.stems}
      originalUrl={track.originalUrl}
      fetchAudio={load}
      onPlay={pauseCurrent}
      pauseSignal={pauseSignal}
    />
  );
}
