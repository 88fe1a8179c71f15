import { Module } from '@nestjs/common';
import { GetCreditAccountHandler, ListExpiringCreditAccountsHandler } from './credit-accounts/credit-accounts.queries';
import {
  GetMixSessionHandler,
  GetMixTrackHandler,
  ListMixSessionsHandler,
  ListRecentMixesHandler,
} from './mixing/mix-sessions.queries';
import { GetNotificationHandler, GetNotificationsHandler } from './notifications/notifications.queries';
import {
  GetPaymentByCaptureHandler,
  GetPaymentByProviderRefHandler,
  GetPaymentHandler,
  ListPaymentsHandler,
  ListPendingPaymentsHandler,
} from './payments/payments.queries';
import {
  CountTracksInProgressHandler,
  GetEngineSpeedHandler,
  GetLibraryHandler,
  GetTrackHandler,
  ListTracksHandler,
} from './tracks/tracks.queries';
import {
  GetAccountsDueForPurgeHandler,
  GetPreferencesHandler,
  GetProfileByEmailFingerprintHandler,
  GetProfileHandler,
} from './profiles/profiles.queries';
import { ListUsageHandler } from './usage-history/usage-history.queries';

/** The read side's query handlers: modules ask through the query bus with the query classes of their contracts. */
@Module({
  providers: [
    GetMixSessionHandler,
    ListMixSessionsHandler,
    ListRecentMixesHandler,
    GetMixTrackHandler,
    GetTrackHandler,
    ListTracksHandler,
    CountTracksInProgressHandler,
    GetLibraryHandler,
    GetEngineSpeedHandler,
    GetNotificationsHandler,
    GetNotificationHandler,
    GetProfileHandler,
    GetProfileByEmailFingerprintHandler,
    GetAccountsDueForPurgeHandler,
    GetPreferencesHandler,
    GetPaymentHandler,
    GetPaymentByCaptureHandler,
    GetPaymentByProviderRefHandler,
    ListPaymentsHandler,
    ListPendingPaymentsHandler,
    ListExpiringCreditAccountsHandler,
    GetCreditAccountHandler,
    ListUsageHandler,
  ],
})
export class ProjectionsModule {}
