import type { AnyProjection } from '@kora/kernel';
import { creditAccountsProjection } from './credit-accounts/credit-accounts.projection';
import { mixSessionsProjection, mixTracksProjection } from './mixing/mix-sessions.projection';
import { notificationsProjection } from './notifications/notifications.projection';
import { paymentsProjection } from './payments/payments.projection';
import { preferencesProjection } from './preferences/preferences.projection';
import { profilesProjection } from './profiles/profiles.projection';
import { endedSessionsProjection } from './sessions/ended-sessions.projection';
import { engineSpeedProjection } from './tracks/engine-speed.projection';
import { libraryProjection } from './tracks/library.projection';
import { tracksProjection } from './tracks/tracks.projection';
import { unlockedTracksProjection } from './unlocked-tracks/unlocked-tracks.projection';
import { usageHistoryProjection } from './usage-history/usage-history.projection';

export { ProjectionsModule } from './projections.module';
export { endedSessionsProjection };

/**
 * Every read model the product maintains, one folder per read model (projection, queries, spec). The runner feeds
 * each one from its own checkpoint; `npm run projections -- status` lists them.
 */
export const allProjections: readonly AnyProjection[] = [
  profilesProjection,
  preferencesProjection,
  endedSessionsProjection,
  notificationsProjection,
  tracksProjection,
  libraryProjection,
  engineSpeedProjection,
  mixSessionsProjection,
  mixTracksProjection,
  paymentsProjection,
  creditAccountsProjection,
  usageHistoryProjection,
  unlockedTracksProjection,
];
