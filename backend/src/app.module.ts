import { type DynamicModule, type ModuleMetadata, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { type AnyProjection, type Clock, ReadStore } from '@kora/kernel';
import { allProjections } from '@kora/projections';
import type { Logger } from 'pino';
import { AudioModule } from '@kora/audio';
import { CatalogModule } from '@kora/catalog';
import { IdentityModule } from '@kora/identity';
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
import { HealthModule } from './health/health.module';
import { IdentityProviderModule } from './identity-provider/identity-provider.module';
import { ErrorFilter } from './http/error.filter';
import { InfraModule } from './infra/infra.module';
import { persistentSecret } from './infra/secrets';
import { EsdbJobQueue } from './infra/jobs/esdb-job-queue';
import { ProcessorsLifecycle } from './infra/processors.lifecycle';
import { RealtimeModule } from './realtime/realtime.module';

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
    return {
      module: AppModule,
      imports: [
        InfraModule.forRoot(config, logger, [...allProjections, ...(options.projections ?? [])], options.clock),
        EventBusModule,
        RealtimeModule,
        HealthModule,
        IdentityProviderModule.forRoot(options.verifier ? { verifier: options.verifier } : {}),
        ProjectionsModule,
        IdentityModule.forRoot({ purgeIntervalMs: config.PURGE_INTERVAL_MINUTES * 60_000 }),
        NotificationsModule,
        MixingModule,
        CatalogModule.forRoot({ demoTracks: config.DEMO_TRACKS === 'on' }),
        AudioModule.forRoot({
          linkSecret: persistentSecret(config.DATA_DIR, 'link.key', config.LINK_SECRET),
          publicUrl: config.publicUrl,
        }),
        ...(options.modules ?? []),
      ],
      providers: [
        CommandContexts,
        ProcessorRegistry,
        ProcessorsLifecycle,
        { provide: JOB_OPTIONS, useValue: { workers: config.WORKERS, leaseMs: config.JOB_LEASE_MS } },
        {
          provide: JobQueue,
          inject: [ReadStore, JOB_OPTIONS],
          useFactory: (reads: ReadStore, jobOptions: JobOptions): JobQueue =>
            config.jobQueue === 'eventstore' && config.EVENTSTORE_URL
              ? new EsdbJobQueue(config.EVENTSTORE_URL, jobOptions)
              : new ReadStoreJobQueue(reads, jobOptions),
        },
        JobRunner,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
      exports: [CommandContexts, ProcessorRegistry, ProcessorsLifecycle, JobQueue, JobRunner],
      global: true,
    };
  }
}
