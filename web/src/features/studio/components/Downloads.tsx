import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Track } from '@kora/contracts';

interface DownloadsProps {
  track: Track;
  fetchAudio(url: string): Promise<Blob>;
}

/** The enhanced video keeps its container (the server names it by content: mp4, mov, m4v, mpeg-ps, mpeg-ts). */
function videoExtension(format: string): string {
  return ({ 'mpeg-ps': 'mpg', 'mpeg-ts': 'ts' } as Record<string, string>)[format] ?? format;
}

/** Saves a blob under a name, through a temporary link. */
function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The downloads: the WAV master(s) once unlocked; before that, why they are locked and where to unlock. */
export function Downloads({ track, fetchAudio }: DownloadsProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const base = track.filename.replace(/\.[^.]*$/, '') || 'kora';
  const files =
    track.service === 'AI_MASTERING'
      ? [
          { type: 'master', label: t('studio:downloads.wav44'), name: `${base}_master_44k.wav` },
          { type: 'master48', label: t('studio:downloads.wav48'), name: `${base}_master_48k.wav` },
        ]
      : track.isVideo
        ? [
            {
              type: 'master',
              label: t('studio:downloads.videoEnhanced'),
              name: `${base}_enhanced.${videoExtension(track.format)}`,
            },
          ]
        : [{ type: 'master', label: t('studio:downloads.wavEnhanced'), name: `${base}_enhanced.wav` }];

  const download = async (type: string, name: string) => {
    setBusy(type);
    setFailed(false);
    try {
      save(await fetchAudio(`/api/audio/track/${encodeURIComponent(track.id)}/stream/${type}`), name);
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="downloads" aria-labelledby="downloads-title">
      <h3 id="downloads-title">{t('studio:downloads.title')}</h3>
      {track.unlocked && track.masterUrl ? (
        <div className="downloads__list">
          {files.map((file) => (
            <button
              key={file.type}
              type="button"
              className="button"
              disabled={busy !== null}
              onClick={() => void download(file.type, file.name)}
            >
              {file.label}
            </button>
          ))}
        </div>
      ) : (
        <div className="downloads__locked">
          <p className="locked-reason">{t('studio:downloads.locked')}</p>
          <div className="downloads__list">
            {files.map((file) => (
              <button key={file.type} type="button" className="button" disabled aria-describedby="downloads-title">
                {file.label}
              </button>
            ))}
          </div>
          <Link
            className="button button--ghost"
            to={`/accountSettings?section=plans&service=${encodeURIComponent(track.service)}#plansSection`}
          >
            {t('studio:downloads.plans')}
          </Link>
        </div>
      )}
      {failed && (
        <p className="field__error" role="alert">
          {t('studio:downloads.failed')}
        </p>
      )}
    </section>
  );
}
