import { DashboardPage } from '../../features/dashboard/components/DashboardPage';
import { RecentTracks } from '../../features/library/RecentTracks';

/** The dashboard route composes the work area with the library feature's recent tracks. */
export function DashboardRoute() {
  return <DashboardPage RecentTracks={RecentTracks} />;
}
