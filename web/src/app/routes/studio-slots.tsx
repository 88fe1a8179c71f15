import { lazy, Suspense } from 'react';
import type {
  MixingStudioProps,
  ResultUnlockProps,
  TrackSourcesProps,
} from '../../features/studio/components/StudioPage';
import { useUploadAccess } from '../../features/billing/hooks/useUploadAccess';
import { DemoButton } from '../../features/library/components/DemoButton';
import { MediaLibraryButton } from '../../features/library/components/MediaLibraryButton';
import { RecentTracks } from '../../features/library/components/RecentTracks';

// The mixing studio and the payment screens load on use (the first route's JavaScript budget, docs/benchmarks.md):
// the mixing studio shows inside the studio's own Suspense boundary, the payment block in its own.
const MixingStudio = lazy(async () => ({
  default: (await import('../../features/mixing/components/MixingStudio')).MixingStudio,
}));
const PaymentUnlock = lazy(async () => ({
  default: (await import('../../features/payment/components/PaymentUnlock')).PaymentUnlock,
}));

/**
 * The upload card's other ways to a track: the service's demo and a new job from the media library (a new job needs
 * credits as an upload does; the demo is always open).
 */
function TrackSources({ service, options, canStart, onOpen, onStarted }: TrackSourcesProps) {
  return (
    <>
      <DemoButton service={service} onOpen={onOpen} />
      {canStart && <MediaLibraryButton service={service} options={options} onStarted={onStarted} />}
    </>
  );
}

/** The payment feature's unlock screen on the studio's result. */
function ResultUnlock(props: ResultUnlockProps) {
  return (
    <Suspense fallback={null}>
      <PaymentUnlock {...props} />
    </Suspense>
  );
}

/** The mixing studio, with the payment feature's unlock block under a locked mix. */
function Mixing(props: MixingStudioProps) {
  return (
    <MixingStudio
      {...props}
      unlock={(mix) => (
        <Suspense fallback={null}>
          <PaymentUnlock
            track={{
              id: mix.sessionId,
              service: mix.service,
              status: 'PREVIEW_READY',
              filename: mix.name,
              isDemo: false,
              unlocked: false,
            }}
            onUnlocked={mix.onUnlocked}
          />
        </Suspense>
      )}
    />
  );
}

/**
 * What the studio's pages get from the other features (features never import each other; the app composes): the
 * library's buttons and recent list, the payment unlock screen, the mixing studio, and the billing feature's upload
 * access (credits left per service).
 */
export const StudioSlots = { TrackSources, RecentTracks, ResultUnlock, MixingStudio: Mixing, useUploadAccess };
