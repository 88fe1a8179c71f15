import type { TrackSourcesProps } from '../../features/studio/components/StudioPage';
import { DemoButton } from '../../features/library/DemoButton';
import { MediaLibraryButton } from '../../features/library/MediaLibraryButton';
import { RecentTracks } from '../../features/library/RecentTracks';
import { MixingStudio } from '../../features/mixing/MixingStudio';

/** The upload card's other ways to a track: the service's demo and a new job from the media library. */
function TrackSources({ service, options, onOpen, onStarted }: TrackSourcesProps) {
  return (
    <>
      <DemoButton service={service} onOpen={onOpen} />
      <MediaLibraryButton service={service} options={options} onStarted={onStarted} />
    </>
  );
}

/**
 * What the studio's pages get from the other features (features never import each other; the app composes): the
 * library's buttons and recent list, and the mixing studio.
 */
export const StudioSlots = { TrackSources, RecentTracks, MixingStudio };
