import { HomePage } from '../../features/studio/components/HomePage';
import { StudioSlots } from './studio-slots';

/** Home: the studio composed with the library feature's demo, media library and recent tracks. */
export function HomeRoute() {
  return <HomePage {...StudioSlots} />;
}
