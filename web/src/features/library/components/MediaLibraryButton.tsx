import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Track, TrackOptions, TrackService } from '@kora/contracts';

// The dialog loads when first opened: it is not part of the studio's first paint (docs/benchmarks.md, "Web client").
const MediaLibraryDialog = lazy(async () => ({ default: (await import('./MediaLibraryDialog')).MediaLibraryDialog }));

/** The upload card's media library button and its dialog; the dialog closes once the new job has started. */
export function MediaLibraryButton({
  service,
  options,
  onStarted,
}: {
  service: TrackService;
  options?: Omit<TrackOptions, 'service'>;
  onStarted(track: Track): void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button--ghost" onClick={() => setOpen(true)}>
        {t('library.media.open')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <MediaLibraryDialog
            open
            service={service}
            options={options}
            onClose={() => setOpen(false)}
            onStarted={(track) => {
              setOpen(false);
              onStarted(track);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
