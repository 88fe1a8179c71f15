import type { ResultUnlockProps, TrackSourcesProps } from '../../features/studio/components/StudioPage';
import { DemoButton } from '../../features/library/DemoButton';
import { MediaLibraryButton } from '../../features/library/MediaLibraryButton';
import { RecentTracks } from '../../features/library/RecentTracks';
import { MixingStudio } from '../../features/mixing/MixingStudio';
import { PaymentUnlock } from '../../features/payment/PaymentUnlock';

/** The upload card's other ways to a track: the service's demo and a new job from the media library. */
function TrackSources({ service, options, onOpen, onStarted }: TrackSourcesProps) {
  return (
    <>
      <DemoButton service={service} onOpen={onOpen} />
      <MediaLibraryButton service={service} options={options} onStarted={onStarted} />
    </>
  );
}

/** The payment feature's unlock screen on the studio's result. */
function ResultUnlock(props: ResultUnlockProps) {
  return <PaymentUnlock {...props} />;
}

/**
 * What the studio's pages get from the other features (features never import each other; the app composes): the
 * library's buttons and recent list, the payment unlock screen, and the mixing studio.
 */
export const StudioSlots = { TrackSources, RecentTracks, ResultUnlock, MixingStudio };
