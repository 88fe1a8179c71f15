import { Module } from '@nestjs/common';
import {
  GetCreditAccountHandler,
  GetPaymentByCaptureHandler,
  GetPaymentByProviderRefHandler,
  GetPaymentHandler,
  ListPaymentsHandler,
  ListPendingPaymentsHandler,
  ListExpiringCreditAccountsHandler,
  ListUsageHandler,
} from './billing/billing.queries';
import {
  GetMixSessionHandler,
  GetMixTrackHandler,
  ListMixSessionsHandler,
  ListRecentMixesHandler,
} from './mixing/mix-sessions.queries';
import { GetNotificationHandler, GetNotificationsHandler } from './notifications/notifications.queries';
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
