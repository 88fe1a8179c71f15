import { type DynamicModule, type ModuleMetadata, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { type AnyProjection, type Clock, ReadStore } from '@kora/kernel';
import { allProjections } from '@kora/projections';
import type { Logger } from 'pino';
import { AudioModule } from '@kora/audio';
import { BillingModule, type BillingOptions, PAYPAL_API_BASES } from '@kora/billing';
import { CatalogModule } from '@kora/catalog';
import { ActiveAccountGuard, IdentityModule } from '@kora/identity';
import { MixingModule } from '@kora/mixing';
import { NotificationsModule } from '@kora/notifications';
import {
  CommandContexts,
  JOB_OPTIONS,
  type JobOptions,
  JobQueue,
  JobRunner,
  ProcessorRegistry,
  ReadStoreJobQueue,
} from '@kora/kernel/nest';
import { ProjectionsModule } from '@kora/projections';
import { AuthGuard } from './auth/auth.guard';
import type { TokenVerifier } from './auth/token-verifier';
import type { Config } from './config/config';
import { EventBusModule } from './cqrs/event-bus.module';
import { carriesOperatorToken } from './health/health.controller';
import { HealthModule } from './health/health.module';
import { UploadSpaceGuard } from './health/upload-space.guard';
import { IdentityProviderModule } from './identity-provider/identity-provider.module';
import { ErrorFilter } from './http/error.filter';
import { InfraModule } from './infra/infra.module';
import { persistentSecret } from './infra/secrets';
import { EsdbJobQueue } from './infra/jobs/esdb-job-queue';
import { ProcessorsLifecycle } from './infra/processors.lifecycle';
import { RealtimeModule } from './realtime/realtime.module';
import { UploadsModule } from './uploads/uploads.module';

/**
 * The payment providers the configuration names: real ones, those turned off, and who may turn the sandbox's knobs
 * (the sandbox serves the others only while none is real).
 */
function paymentProviders(config: Config): Partial<BillingOptions> {
  return {
    providerTimeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
    ...(config.BILLING_OPERATOR_EMAIL ? { operatorEmail: config.BILLING_OPERATOR_EMAIL } : {}),
    off: (['PAYPAL', 'ORANGE_MONEY'] as const).filter((provider) => config[provider] === 'off'),
    sandboxKnobs: (authorization) =>
      config.SANDBOX_KNOBS === 'on' || carriesOperatorToken(authorization, config.OPS_TOKEN),
    ...(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET
      ? {
          paypal: {
            clientId: config.PAYPAL_CLIENT_ID,
            clientSecret: config.PAYPAL_CLIENT_SECRET,
            apiBase: config.PAYPAL_API_BASE ?? PAYPAL_API_BASES[config.PAYPAL_ENV],
            ...(config.PAYPAL_WEBHOOK_ID ? { webhookId: config.PAYPAL_WEBHOOK_ID } : {}),
          },
        }
      : {}),
    ...(config.ORANGE_MONEY_CLIENT_ID &&
    config.ORANGE_MONEY_CLIENT_SECRET &&
    config.ORANGE_MONEY_MERCHANT_CODE &&
    config.ORANGE_MONEY_CALLBACK_API_KEY
      ? {
          orangeMoney: {
            clientId: config.ORANGE_MONEY_CLIENT_ID,
            clientSecret: config.ORANGE_MONEY_CLIENT_SECRET,
            apiBase: config.ORANGE_MONEY_API_BASE,
            merchantCode: config.ORANGE_MONEY_MERCHANT_CODE,
            callbackApiKey: config.ORANGE_MONEY_CALLBACK_API_KEY,
            callbackAuth: config.ORANGE_MONEY_CALLBACK_AUTH,
            ...(config.ORANGE_MONEY_CALLBACK_HMAC_SECRET
              ? { callbackHmacSecret: config.ORANGE_MONEY_CALLBACK_HMAC_SECRET }
              : {}),
          },
        }
      : {}),
    // Honoured only under test: the crash test's way to die between the provider's capture and our append.
    crashAfterCapture: config.NODE_ENV === 'test' && process.env.BILLING_TEST_CRASH_AFTER_CAPTURE === '1',
  };
}

export interface AppOptions {
  /** Extra modules (feature modules under test). */
  readonly modules?: NonNullable<ModuleMetadata['imports']>;
  /** Extra read models beside the product's own (feature projections under test). */
  readonly projections?: readonly AnyProjection[];
  /** Replaces the token verifier (tests of the spine that sign their own tokens). */
  readonly verifier?: TokenVerifier;
  /** Replaces the system clock (tests of time windows). */
  readonly clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot(config: Config, logger: Logger, options: AppOptions = {}): DynamicModule {
    // One key signs every e-mailed download link (tracks and mixes).
    const linkSecret = persistentSecret(config.DATA_DIR, 'link.key', config.LINK_SECRET);
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot(config, logger, [...allProjections, ...(options.projections ?? [])], options.clock),
        EventBusModule,
        RealtimeModule,
        HealthModule,
        UploadsModule,
        IdentityProviderModule.forRoot(options.verifier ? { verifier: options.verifier } : {}),
        ProjectionsModule,
        IdentityModule.forRoot({ purgeIntervalMs: config.PURGE_INTERVAL_MINUTES * 60_000 }),
        NotificationsModule,
        MixingModule.forRoot({ linkSecret, publicUrl: config.publicUrl }),
        CatalogModule.forRoot({ demoTracks: config.DEMO_TRACKS === 'on', cacheDir: config.DEMO_CACHE_DIR }),
        AudioModule.forRoot({ linkSecret, publicUrl: config.publicUrl }),
        BillingModule.forRoot({
          publicUrl: config.publicUrl,
          sandboxSecret: persistentSecret(config.DATA_DIR, 'payment-sandbox.key', config.PAYMENT_SANDBOX_SECRET),
          ...(config.BILLING_CATALOGUE ? { cataloguePath: config.BILLING_CATALOGUE } : {}),
          reconcileIntervalMs: config.BILLING_RECONCILE_SECONDS * 1000,
          reconcileMinAgeMs: config.BILLING_RECONCILE_MIN_AGE_SECONDS * 1000,
          expiryIntervalMs: config.BILLING_EXPIRY_SECONDS * 1000,
          orangeMoneyValidity: config.ORANGE_MONEY_QR_VALIDITY_SECONDS,
          processors: config.PROCESSORS === 'on',
          ...paymentProviders(config),
        }),
        ...(options.modules ?? []),
      ],
      providers: [
        CommandContexts,
        ProcessorRegistry,
        ProcessorsLifecycle,
        {
          provide: JOB_OPTIONS,
          useValue: { workers: config.WORKERS, leaseMs: config.JOB_LEASE_MS, niceness: config.JOB_NICENESS },
        },
        {
          provide: JobQueue,
          inject: [ReadStore, JOB_OPTIONS],
          useFactory: (reads: ReadStore, jobOptions: JobOptions): JobQueue =>
            config.jobQueue === 'eventstore' && config.EVENTSTORE_URL
              ? new EsdbJobQueue(config.EVENTSTORE_URL, jobOptions)
              : new ReadStoreJobQueue(reads, jobOptions),
        },
        JobRunner,
        // Global guards run in this order: the token first, so an anonymous upload gets its 401 whatever the disk;
        // then the account's state (a deactivated account changes nothing and spends nothing).
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: ActiveAccountGuard },
        { provide: APP_GUARD, useClass: UploadSpaceGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
      exports: [CommandContexts, ProcessorRegistry, ProcessorsLifecycle, JobQueue, JobRunner],
      global: true,
    };
  }
}
