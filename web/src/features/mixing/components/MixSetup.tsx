import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SendLine } from '../../../components/SendLine';
import { errorBody } from '../../../lib/api';
import { errorKey, fieldCode } from '../../../lib/error-codes';
import { serverAvailable } from '../../../lib/health';
import type { SendProgress } from '../../../lib/resumable-upload';
import { useSessionManager } from '../../../lib/session/SessionProvider';
import { uploadMixTracks, useCreateMixSessionMutation, useRequestMixMutation } from '../api/mixing';
import {
  addFiles,
  DEFAULT_MIX_NAME,
  DEFAULT_SAMPLE_RATE,
  DEFAULT_STYLE,
  defaultSettings,
  MAX_FILES,
  mixProblems,
  type MixProblem,
  type MusicalStyle,
  type SampleRate,
  type TrackSettings,
} from '../model/mixing';
import { TrackSettingsPanel } from './TrackSettingsPanel';

interface Chosen {
  file: File;
  settings: TrackSettings;
}

/** The server's refusal of an upload, as a message key of this namespace. */
export function uploadProblem(code: string | undefined): string {
  return errorKey('mixingUpload', code, 'errors.upload');
}

/**
 * The upload card for AI mixing (spec §2): multi-track only, the mix name (required, "My Mix" by default), two to
 * five WAV files with their settings, then the mix is created, its files sent with their settings, and the mix asked
 * for; the page then follows the session.
 */
export function MixSetup({
  onCreated,
  checkServer = serverAvailable,
}: {
  onCreated(sessionId: string): void;
  /** The health check that precedes accepting a file (spec §5); tests give their own. */
  checkServer?: () => Promise<boolean>;
}) {
  const { t } = useTranslation('mixing');
  const session = useSessionManager();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(DEFAULT_MIX_NAME);
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [style, setStyle] = useState<MusicalStyle>(DEFAULT_STYLE);
  const [sampleRate, setSampleRate] = useState<SampleRate>(DEFAULT_SAMPLE_RATE);
  const [fileProblem, setFileProblem] = useState<MixProblem | 'serverUnavailable' | null>(null);
  const [nameProblem, setNameProblem] = useState(false);
  const [countProblem, setCountProblem] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [sending, setSending] = useState<SendProgress | null>(null);
  const [createSession] = useCreateMixSessionMutation();
  const [requestMix] = useRequestMixMutation();

  const add = async (list: FileList | null | undefined) => {
    if (!list || list.length === 0) return;
    const added = [...list];
    if (input.current) input.current.value = '';
    if (!(await checkServer())) {
      setFileProblem('serverUnavailable');
      return;
    }
    const { files, problem } = addFiles(
      chosen.map((entry) => entry.file),
      added,
    );
    const known = new Map(chosen.map((entry) => [entry.file, entry.settings]));
    setChosen(files.map((file) => ({ file, settings: known.get(file) ?? defaultSettings(file.name) })));
    setFileProblem(problem);
    // The server's word on the files sent before is about files that may be gone: it goes with them.
    setFailure(null);
    if (files.length >= 2) setCountProblem(false);
  };

  const start = async () => {
    setFailure(null);
    const problems = mixProblems(
      name,
      chosen.map((entry) => entry.file),
    );
    setNameProblem(problems.includes('mixNameRequired'));
    setCountProblem(problems.includes('minimumFiles'));
    if (problems.length > 0) return;
    setSending({ phase: 'sending', done: 0, total: 0, bytesPerSecond: null, remainingMs: null });
    try {
      let created;
      try {
        created = await createSession({ name: name.trim(), mixingStyle: style, sampleRate }).unwrap();
      } catch (error) {
        setFailure(errorKey('mixingCreate', fieldCode(errorBody(error), 'name'), 'errors.createSession'));
        return;
      }
      const sessionId = created.session?.id;
      if (!sessionId) {
        setFailure('errors.createSession');
        return;
      }
      let answer;
      try {
        answer = await uploadMixTracks(
          session,
          sessionId,
          chosen.map((entry) => entry.file),
          chosen.map((entry) => ({ fileName: entry.file.name, ...entry.settings })),
          setSending,
        );
      } catch {
        setFailure('errors.upload');
        return;
      }
      if (answer.status !== 201) {
        setFailure(uploadProblem(answer.body && 'code' in answer.body ? answer.body.code : undefined));
        return;
      }
      try {
        await requestMix(sessionId).unwrap();
      } catch {
        // The tracks are there: the session's page offers to ask again.
      }
      onCreated(sessionId);
    } finally {
      setSending(null);
    }
  };

  if (sending) {
    const percent = sending.total > 0 ? Math.floor((sending.done / sending.total) * 100) : 0;
    return (
      <div className="upload-card upload-card--busy mix-setup">
        <p>{t('setup.uploading', { name: name.trim() })}</p>
        <div
          className="progress"
          role="progressbar"
          aria-label={t('setup.uploadingLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div className="progress__bar" style={{ width: `${percent}%` }} />
        </div>
        <p className="muted">{t('setup.percent', { percent })}</p>
        {sending.total > 0 && <SendLine progress={sending} />}
      </div>
    );
  }

  const problemId = `${id}-problem`;
  const fileMessage = fileProblem ?? (countProblem ? 'minimumFiles' : null);
  return (
    <div className="upload-card mix-setup">
      <p className="stems-board__notice mix-setup__soon">{t('setup.comingSoon')}</p>
      {failure && (
        <p className="studio-banner" role="alert">
          {t(failure)}
        </p>
      )}
      <div className="studio-options studio-options--row">
        <fieldset className="mix-setup__mode">
          <legend>{t('setup.mode')}</legend>
          <div className="segmented">
            <button type="button" aria-pressed={false} disabled title={t('setup.singleUnavailable')}>
              {t('setup.single')}
            </button>
            <button type="button" aria-pressed>
              {t('setup.multi')}
            </button>
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('setup.name')}</label>
          <input
            id={`${id}-name`}
            type="text"
            value={name}
            maxLength={120}
            required
            aria-invalid={nameProblem}
            aria-describedby={nameProblem ? `${id}-name-problem` : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setNameProblem(false);
            }}
          />
          {nameProblem && (
            <p id={`${id}-name-problem`} className="field__error" role="alert">
              {t('problems.mixNameRequired')}
            </p>
          )}
        </div>
      </div>

      <div
        className={`dropzone${dragging ? ' is-dragging' : ''}${fileMessage ? ' is-invalid' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void add(event.dataTransfer.files);
        }}
      >
        <p className="dropzone__hint">{t('setup.drop', { min: 2, max: MAX_FILES })}</p>
        <input
          ref={input}
          id={`${id}-files`}
          className="visually-hidden"
          type="file"
          multiple
          accept=".wav,audio/wav,audio/x-wav"
          disabled={chosen.length >= MAX_FILES}
          aria-describedby={fileMessage ? problemId : undefined}
          onChange={(event) => void add(event.target.files)}
        />
        <label
          htmlFor={`${id}-files`}
          className={`button button--ghost${chosen.length >= MAX_FILES ? ' is-disabled' : ''}`}
          aria-disabled={chosen.length >= MAX_FILES}
        >
          {t('setup.select')}
        </label>
        <p className="dropzone__file">{t('setup.count', { count: chosen.length, max: MAX_FILES })}</p>
        {fileMessage && (
          <p id={problemId} className="field__error" role="alert">
            {t(`problems.${fileMessage}`, { min: 2, max: MAX_FILES })}
          </p>
        )}
      </div>

      {chosen.length > 0 && (
        <TrackSettingsPanel
          tracks={chosen.map((entry) => ({ key: entry.file.name, name: entry.file.name, settings: entry.settings }))}
          style={style}
          sampleRate={sampleRate}
          onTrackChange={(key, change) =>
            setChosen((current) =>
              current.map((entry) =>
                entry.file.name === key
                  ? { ...entry, settings: { ...entry.settings, ...(change as Partial<TrackSettings>) } }
                  : entry,
              ),
            )
          }
          onSessionChange={(change) => {
            if (change.style) setStyle(change.style);
            if (change.sampleRate) setSampleRate(change.sampleRate);
          }}
          onRemove={(key) => {
            setChosen((current) => current.filter((entry) => entry.file.name !== key));
            setFileProblem(null);
            setFailure(null);
          }}
        />
      )}

      <div className="upload-card__actions">
        <button type="button" className="button" onClick={() => void start()}>
          {t('setup.start')}
        </button>
      </div>
    </div>
  );
}
