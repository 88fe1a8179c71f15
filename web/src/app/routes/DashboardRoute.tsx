import { DashboardPage } from '../../features/studio/components/DashboardPage';
import { StudioSlots } from './studio-slots';

/** The dashboard: the studio composed with the library feature's demo, media library and recent tracks. */
export function DashboardRoute() {
  return <DashboardPage {...StudioSlots} />;
}
