import { useTranslation } from 'react-i18next';
import type { Track } from '@kora/contracts';
import { useDemoTrack } from '../hooks/useDemoTrack';

/**
 * The upload card's demo button: opens the account's demo track for the service once it is ready; says when it is
 * still loading, and offers a retry when it could not be loaded (it is also retried after 5 minutes).
 */
export function DemoButton({ service, onOpen }: { service: string; onOpen(track: Track): void }) {
  const { t } = useTranslation();
  const demo = useDemoTrack(service);
  if (demo.status === 'error') {
    return (
      <span className="demo-button">
        <span className="field__error" role="alert">
          {t('library.demo.error')}
        </span>
        <button type="button" className="button button--ghost" onClick={demo.retry}>
          {t('common.retry')}
        </button>
      </span>
    );
  }
  const ready = demo.status === 'ready';
  return (
    <button
      type="button"
      className="button button--ghost demo-button"
      disabled={!ready}
      aria-busy={!ready || undefined}
      onClick={() => {
        if (demo.status === 'ready') onOpen(demo.track);
      }}
    >
      {t(ready ? 'library.demo.open' : 'library.demo.loading')}
    </button>
  );
}
