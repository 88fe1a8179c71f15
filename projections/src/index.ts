import type { AnyProjection } from '@kora/kernel';
import { notificationsProjection } from './notifications/notifications.projection';
import { preferencesProjection } from './preferences/preferences.projection';
import { profilesProjection } from './profiles/profiles.projection';

export { ProjectionsModule } from './projections.module';

/**
 * Every read model the product maintains, one folder per read model (projection, queries, spec). The runner feeds
 * each one from its own checkpoint; `npm run projections -- status` lists them.
 */
export const allProjections: readonly AnyProjection[] = [
  profilesProjection,
  preferencesProjection,
  notificationsProjection,
];
