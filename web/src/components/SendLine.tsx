import { useTranslation } from 'react-i18next';
import { formatDuration } from '../lib/format';
import type { SendProgress } from '../lib/resumable-upload';

/**
 * What the sending says while it runs: compressing; bytes sent of the total, the speed and the time left; or paused,
 * waiting for the network (it goes on by itself). Sizes and speeds in the reader's language (`Intl`: "12,3 Mo").
 */
export function SendLine({ progress }: { progress: SendProgress }) {
  const { t, i18n } = useTranslation();
  const size = (bytes: number) =>
    new Intl.NumberFormat(i18n.language, {
      style: 'unit',
      unit: 'megabyte',
      maximumFractionDigits: bytes < 10 * 1e6 ? 1 : 0,
    }).format(bytes / 1e6);
  let text: string;
  if (progress.phase === 'paused') text = t('studio:upload.paused');
  else if (progress.phase === 'compressing') text = t('studio:upload.compressing');
  else {
    const sent = t('studio:upload.sent', { done: size(progress.done), total: size(progress.total) });
    const speed =
      progress.bytesPerSecond === null
        ? ''
        : ` · ${new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'kilobyte-per-second', maximumFractionDigits: 0 }).format(progress.bytesPerSecond / 1e3)}`;
    const left =
      progress.remainingMs === null
        ? ''
        : ` · ${t('studio:processing.remaining', { time: formatDuration(Math.ceil(progress.remainingMs / 1000)) })}`;
    text = `${sent}${speed}${left}`;
  }
  return (
    <p className="upload-card__send muted" role="status" data-phase={progress.phase}>
      {text}
    </p>
  );
}
