import { type ReactNode, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { serverAvailable } from '../../../lib/health';
import { SendLine } from '../../../components/SendLine';
import type { SendProgress } from '../../../lib/resumable-upload';
import type { UploadMessage } from '../model/errors';
import {
  type EnhancementPreset,
  MASTERING_INTENSITIES,
  MASTERING_TARGETS,
  type MasteringIntensity,
  type MasteringTarget,
  STEM_MODES,
  type StemMode,
  type TrackOptions,
  type TrackService,
} from '@kora/contracts';
import { acceptFor, checkFile, PRESET_CHOICES } from '../model/validation';
import { ProgressRing } from './ProgressRing';

/**
 * Whether the card may take a new file (spec §2): `subscribe` replaces the file picker with the plans link (no credits
 * left for the service, or no subscription details); `checking` while the credits are not known yet.
 */
export type UploadAccess = 'open' | 'subscribe' | 'checking';

/** The plans link of a service (spec §2). */
export const plansLink = (service: string) =>
  `/accountSettings?section=plans&service=${encodeURIComponent(service)}#plansSection`;

/** With a reference track, the master can also take the reference's loudness. */
type Target = MasteringTarget | 'reference';

/** The file being sent, the ring's percent (0-30) and what the sending says of itself, while the upload runs. */
export interface UploadingState {
  filename: string;
  percent: number;
  progress?: SendProgress;
}

export interface UploadCardProps {
  /** A track's service (AI mixing has its own card, `MixSetup`). */
  service: TrackService;
  uploading: UploadingState | null;
  /** Sends the file (and mastering's reference track); resolves with the refusal to show, or null once taken. */
  onStart(file: File, fields: TrackOptions, reference: File | null): Promise<UploadMessage | null>;
  /** The other ways to a track (the demo, the media library), given by the app with the card's options. */
  sources?(options: Omit<TrackOptions, 'service'>): ReactNode;
  /** The health check before a file is accepted (at most once a minute); replaced in tests. */
  checkServer?(): Promise<boolean>;
  /** Open unless the app says the service's credits are spent or unknown (stem separation, enhancement). */
  access?: UploadAccess;
}

/** The upload card of a service (spec §2): its options, the drop zone, the file picker and the start button. */
export function UploadCard({
  service,
  uploading,
  onStart,
  sources,
  checkServer = serverAvailable,
  access = 'open',
}: UploadCardProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const problemId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<UploadMessage | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [mode, setMode] = useState<StemMode>('vocals');
  const [preset, setPreset] = useState<EnhancementPreset>('audio');
  const [intensity, setIntensity] = useState<MasteringIntensity>('medium');
  const [target, setTarget] = useState<Target>('streaming');
  // The user's own pick among the presets, kept while a reference sets the target and restored when it goes.
  const [picked, setPicked] = useState<MasteringTarget>('streaming');
  const [reference, setReference] = useState<File | null>(null);
  const [referenceProblem, setReferenceProblem] = useState<string | null>(null);
  const referenceInput = useRef<HTMLInputElement>(null);
  const [starting, setStarting] = useState(false);

  const accept = async (chosen: File | null | undefined) => {
    setBanner(null);
    if (!chosen) return;
    const found = checkFile(chosen, service, preset);
    if (found) {
      setFile(null);
      setProblem({
        place: 'file',
        key: `upload.errors.${found.key}`,
        ...(found.limitMb ? { limitMb: found.limitMb } : {}),
      });
      return;
    }
    if (!(await checkServer())) {
      setFile(null);
      setProblem(null);
      setBanner('errors.serverUnavailable');
      return;
    }
    setProblem(null);
    setFile(chosen);
  };

  const chooseReference = (chosen: File | null | undefined) => {
    if (!chosen) return;
    // Any WAV or MP3 of at most 50 MB; its length does not matter.
    const found = checkFile(
      { name: chosen.name, size: Math.max(chosen.size, 1024 * 1024), type: chosen.type },
      service,
      'audio',
    );
    if (found) {
      setReference(null);
      setReferenceProblem(
        found.key === 'fileSizeMax' ? 'upload.errors.referenceSize' : 'upload.errors.referenceFormat',
      );
      return;
    }
    setReferenceProblem(null);
    setReference(chosen);
    setTarget('reference');
  };

  const removeReference = () => {
    setReference(null);
    setReferenceProblem(null);
    if (target === 'reference') setTarget(picked);
    if (referenceInput.current) referenceInput.current.value = '';
  };

  const choosePreset = (next: EnhancementPreset) => {
    setPreset(next);
    // A file picked for the other kind no longer fits.
    if (file && checkFile(file, service, next)) {
      setFile(null);
      setProblem(null);
    }
  };

  /** The job's options as chosen on the card (a reference track travels as a file, not a field). */
  const options = (): Omit<TrackOptions, 'service'> => {
    if (service === 'STEM_SEPARATION') return { mode };
    if (service === 'AUDIO_ENHANCEMENT') return { preset };
    return target === 'reference' ? { intensity } : { intensity, target };
  };

  const start = async () => {
    if (!file || uploading || starting) return;
    setStarting(true);
    setBanner(null);
    const fields: TrackOptions = { service, ...options() };
    try {
      const refusal = await onStart(file, fields, service === 'AI_MASTERING' ? reference : null);
      if (refusal?.place === 'file') {
        setProblem(refusal);
        setFile(null);
      } else if (refusal) {
        setBanner(refusal.key);
      }
    } finally {
      setStarting(false);
      if (input.current) input.current.value = '';
    }
  };

  if (uploading) {
    return (
      <div className="upload-card upload-card--busy">
        <ProgressRing percent={uploading.percent} label={t('studio:upload.uploading')} />
        <p className="upload-card__filename">{uploading.filename}</p>
        {uploading.progress && <SendLine progress={uploading.progress} />}
      </div>
    );
  }

  const busy = starting;
  return (
    <div className="upload-card">
      {banner && (
        <p className="studio-banner" role="alert">
          {t(`studio:${banner}`)}
        </p>
      )}
      {service === 'STEM_SEPARATION' && (
        <fieldset className="studio-options">
          <legend>{t('studio:upload.mode')}</legend>
          <div className="segmented">
            {STEM_MODES.map((value) => (
              <button key={value} type="button" aria-pressed={mode === value} onClick={() => setMode(value)}>
                {t(`studio:modes.${value}`)}
              </button>
            ))}
          </div>
        </fieldset>
      )}
      {service === 'AUDIO_ENHANCEMENT' && (
        <fieldset className="studio-options">
          <legend>{t('studio:upload.preset')}</legend>
          <div className="segmented">
            {PRESET_CHOICES.map((value) => (
              <button
                key={value}
                type="button"
                aria-pressed={preset === value}
                aria-describedby={preset === value ? `${inputId}-preset` : undefined}
                onClick={() => choosePreset(value)}
              >
                {t(`studio:presets.${value}`)}
              </button>
            ))}
          </div>
          <p id={`${inputId}-preset`} className="muted studio-options__hint">
            {t(`studio:presetHints.${preset}`)}
          </p>
        </fieldset>
      )}
      {service === 'AI_MASTERING' && (
        <div className="studio-options studio-options--row">
          <fieldset>
            <legend>{t('studio:upload.intensity')}</legend>
            <div className="segmented">
              {MASTERING_INTENSITIES.map((value) => (
                <button
                  key={value}
                  type="button"
                  aria-pressed={intensity === value}
                  onClick={() => setIntensity(value)}
                >
                  {t(`studio:intensities.${value}`)}
                </button>
              ))}
            </div>
          </fieldset>
          {/* Radio buttons, not a dropdown: a closed dropdown shows its choice on one line, which a phone cuts
              ("Streaming: Spotify, YouTube, Deezer (−1"); a radio's label wraps. */}
          <fieldset className="target" aria-describedby={target === 'reference' ? `${inputId}-target-note` : undefined}>
            <legend>{t('studio:upload.target')}</legend>
            <div className="target__options">
              {(reference ? (['reference', ...MASTERING_TARGETS] as const) : MASTERING_TARGETS).map((value) => (
                <label key={value} className="target__option">
                  <input
                    type="radio"
                    name={`${inputId}-target`}
                    value={value}
                    checked={target === value}
                    onChange={() => {
                      setTarget(value);
                      if (value !== 'reference') setPicked(value);
                    }}
                  />
                  <span>{t(`studio:targets.${value}`)}</span>
                </label>
              ))}
            </div>
            {target === 'reference' && (
              <p id={`${inputId}-target-note`} className="muted reference__hint">
                {t('studio:upload.targetFromReference', { pick: t(`studio:targets.${picked}`) })}
              </p>
            )}
          </fieldset>
          <div className="field reference">
            <span className="reference__title">{t('studio:upload.reference')}</span>
            <p className="muted reference__hint">{t('studio:upload.referenceHint')}</p>
            <input
              ref={referenceInput}
              id={`${inputId}-reference`}
              className="visually-hidden"
              type="file"
              accept={acceptFor(service, 'audio')}
              onChange={(event) => chooseReference(event.target.files?.[0])}
            />
            <div className="reference__row">
              <label htmlFor={`${inputId}-reference`} className="button button--ghost button--small">
                {t(reference ? 'studio:upload.referenceChange' : 'studio:upload.referenceChoose')}
              </label>
              {reference && (
                <>
                  <span className="reference__name">{reference.name}</span>
                  <button type="button" className="button button--ghost button--small" onClick={removeReference}>
                    {t('studio:upload.referenceRemove')}
                  </button>
                </>
              )}
            </div>
            {referenceProblem && (
              <p className="field__error" role="alert">
                {t(`studio:${referenceProblem}`)}
              </p>
            )}
          </div>
        </div>
      )}
      <div
        className={`dropzone${dragging ? ' is-dragging' : ''}${problem ? ' is-invalid' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (access === 'open') void accept(event.dataTransfer.files[0]);
        }}
      >
        {access === 'subscribe' ? (
          <>
            <p className="dropzone__hint">{t('studio:upload.noCredits')}</p>
            <Link className="button" to={plansLink(service)}>
              {t('studio:upload.subscribe')}
            </Link>
          </>
        ) : access === 'checking' ? (
          <p className="dropzone__hint muted">{t('studio:upload.checkingCredits')}</p>
        ) : (
          <>
            <p className="dropzone__hint">
              {t(
                service === 'AUDIO_ENHANCEMENT' && preset === 'video'
                  ? 'studio:upload.dropVideo'
                  : 'studio:upload.dropAudio',
              )}
            </p>
            <input
              ref={input}
              id={inputId}
              className="visually-hidden"
              type="file"
              accept={acceptFor(service, preset)}
              aria-describedby={problem ? problemId : undefined}
              onChange={(event) => void accept(event.target.files?.[0])}
            />
            <label htmlFor={inputId} className="button button--ghost">
              {t('studio:upload.select')}
            </label>
            {file && (
              <p className="dropzone__file">{t('studio:upload.chosen', { name: file.name, count: 1, max: 1 })}</p>
            )}
            {problem && (
              <p id={problemId} className="field__error" role="alert">
                {t(`studio:${problem.key}`, { limitMb: problem.limitMb, limitMinutes: problem.limitMinutes })}
              </p>
            )}
          </>
        )}
      </div>
      <div className="upload-card__actions">
        <button type="button" className="button" disabled={!file || busy} onClick={() => void start()}>
          {t('studio:upload.start')}
        </button>
        {sources?.(options())}
      </div>
    </div>
  );
}
