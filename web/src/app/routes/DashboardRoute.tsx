import { DashboardPage, type TrackSourcesSlot } from '../../features/dashboard/components/DashboardPage';
import { DemoButton } from '../../features/library/DemoButton';
import { MediaLibraryButton } from '../../features/library/MediaLibraryButton';
import { RecentTracks } from '../../features/library/RecentTracks';

/** The services a file can be processed by (AI mixing takes several files, through its own sessions). */
const SINGLE_FILE_SERVICES = ['AI_MASTERING', 'STEM_SEPARATION', 'AUDIO_ENHANCEMENT'];

/** The demo and the media library, until the studio's upload card carries them. */
const TrackSources: TrackSourcesSlot = ({ service, onOpen, onStarted }) =>
  SINGLE_FILE_SERVICES.includes(service) ? (
    <div className="track-sources">
      <DemoButton service={service} onOpen={onOpen} />
      <MediaLibraryButton service={service} onStarted={onStarted} />
    </div>
  ) : null;

/** The dashboard route composes the work area with the library feature's recent tracks, demo and media library. */
export function DashboardRoute() {
  return <DashboardPage RecentTracks={RecentTracks} TrackSources={TrackSources} />;
}
