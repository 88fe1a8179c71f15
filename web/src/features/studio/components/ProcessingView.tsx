import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';
import { formatDuration } from '../../../lib/format';
import { useAppSelector } from '../../../lib/hooks';
import { useNow } from '../../../lib/useNow';
import type { Track } from '@kora/contracts';
import { useCancelTrackMutation, useGetTrackStatusQuery } from '../api/tracks';
import {
  isResult,
  processingPercent,
  processingShare,
  progressWord,
  remainingSeconds,
  STEPS,
  stepStates,
  type StudioService,
} from '../model/progress';

/** Status poll while the socket is down (spec §9: every second in the processing view). */
export const STATUS_POLL_MS = 1000;
/** With the socket up, a slow poll still catches a status the socket missed (a reconnection in between). */
export const SAFETY_POLL_MS = 5000;
/** The pause on 100 % before the result opens (spec §4). */
const COMPLETION_DELAY_MS = 500;

interface ProcessingViewProps {
  track: Track;
  /** The job ended (result or failure): the page reloads the track and shows what it became. */
  onFinished(): void;
  /** The job was stopped: back to the upload card. */
  onAborted(): void;
}

/** The processing view: progress bar, the service's steps, the time left, and abort behind a confirmation. */
export function ProcessingView({ track, onFinished, onAborted }: ProcessingViewProps) {
  const { t } = useTranslation();
  const service = track.service as StudioService;
  const connected = useAppSelector((state) => state.realtime.status === 'connected');
  const { data, isError } = useGetTrackStatusQuery(track.id, {
    pollingInterval: connected ? SAFETY_POLL_MS : STATUS_POLL_MS,
    refetchOnMountOrArgChange: true,
  });
  const now = useNow(250);
  const watchedFrom = useRef(Date.now());
  const shown = useRef(0);
  const almostDone = useRef(false);
  const [confirming, setConfirming] = useState(false);
  const [cancel, cancelState] = useCancelTrackMutation();
  const [cancelFailed, setCancelFailed] = useState(false);

  const status = data?.status ?? track.status;
  const done = isResult(status);
  const word = data ? progressWord(data) : null;
  const percent = processingPercent({
    service,
    status,
    startedAt: watchedFrom.current,
    now,
    word,
    previous: shown.current,
  });
  shown.current = percent;
  // Once "Almost done" shows, it stays: estimates a second either side of the end would make it flicker.
  const counted = remainingSeconds(word, now);
  if (counted === 0) almostDone.current = true;
  const left = almostDone.current ? 0 : counted;
  const steps = STEPS[service] ?? [];
  const states = stepStates(steps.length, processingShare(percent), done);

  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;
  useEffect(() => {
    if (done) {
      const timer = setTimeout(() => finishedRef.current(), COMPLETION_DELAY_MS);
      return () => clearTimeout(timer);
    }
    if (status === 'FAILED' || status === 'CANCELLED' || status === 'DELETED') finishedRef.current();
    return undefined;
  }, [done, status]);

  const abort = async () => {
    setCancelFailed(false);
    try {
      await cancel(track.id).unwrap();
      setConfirming(false);
      onAborted();
    } catch {
      setCancelFailed(true);
      setConfirming(false);
    }
  };

  return (
    <div className="processing">
      <p className="processing__file">{track.filename}</p>
      <div
        className="progress"
        role="progressbar"
        aria-label={t('studio:processing.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="processing__numbers">
        <span>{t('studio:processing.percent', { percent })}</span>
        <span>
          {left === null
            ? t('studio:processing.estimating')
            : left === 0
              ? t('studio:processing.almostDone')
              : t('studio:processing.remaining', { time: formatDuration(left) })}
        </span>
      </p>
      <ol className="steps">
        {steps.map((step, index) => (
          <li key={step} className={`steps__item steps__item--${states[index]}`}>
            <span className="steps__mark" aria-hidden="true" />
            <span>{t(`studio:steps.${service}.${step}`)}</span>
            <span className="visually-hidden">{t(`studio:steps.state.${states[index]}`)}</span>
          </li>
        ))}
      </ol>
      {isError && <p className="muted">{t('studio:errors.statusCheck')}</p>}
      {cancelFailed && (
        <p className="studio-banner" role="alert">
          {t('studio:errors.cancelFailed')}
        </p>
      )}
      <button type="button" className="button button--danger" disabled={done} onClick={() => setConfirming(true)}>
        {t('studio:processing.abort')}
      </button>
      {confirming && (
        <Modal title={t('studio:processing.abortTitle')} onClose={() => setConfirming(false)}>
          <p>{t('studio:processing.abortText')}</p>
          <div className="modal__actions">
            <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
              {t('studio:processing.no')}
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={cancelState.isLoading}
              onClick={() => void abort()}
            >
              {t('studio:processing.yes')}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
