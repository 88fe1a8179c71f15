import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  type AnyProjection,
  BlobStore,
  type Clock,
  EventStore,
  type IdGenerator,
  ProjectionRunner,
  ReadStore,
  uuidv7,
  CLOCK,
  IDS,
} from '@kora/kernel';
import { ResumableUploads } from '@kora/kernel/nest';
import { allProjections } from '@kora/projections';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '../config/config';
import { LOGGER } from '../observability/logger';
import { Metrics } from '../observability/metrics';
import { GridFsBlobStore } from './blobs/gridfs-blob-store';
import { LocalBlobStore } from './blobs/local-blob-store';
import { OrphanSweeper } from './orphan-sweeper';
import { EsdbEventStore } from './event-store/esdb-event-store';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import { MongoReadStore } from './read-store/mongo-read-store';
import { SqliteReadStore } from './read-store/sqlite-read-store';
import { ProjectionThread } from './projection-thread';
import { SqliteDatabase } from './sqlite/sqlite-database';

export { CLOCK, IDS };

export const systemClock: Clock = { now: () => new Date() };
/** Time-ordered ids (UUID v7): event ids index at the end of the log's B-tree. */
export const uuidIds: IdGenerator = { newId: () => uuidv7() };

/** The opened stores (and the embedded database file, when some port runs embedded). */
export const STORES = Symbol('STORES');

export interface Stores {
  readonly sqlite: SqliteDatabase | null;
  readonly events: EventStore;
  readonly reads: ReadStore;
  readonly blobs: BlobStore;
}

/** Opens the stores the configuration picks: SQLite under DATA_DIR unless EVENTSTORE_URL / MONGODB_URL are set. */
export async function openStores(config: Config, metrics?: Metrics): Promise<Stores> {
  const needsSqlite = config.embedded.eventStore || config.embedded.readStore;
  const sqlite = needsSqlite
    ? new SqliteDatabase(join(config.DATA_DIR, 'kora.db'), {
        checkpoints: config.SQLITE_CHECKPOINTS,
        onWarning: (message) => process.emitWarning(message),
      })
    : null;
  const onAppended = (count: number): void => metrics?.eventsAppended.inc(count);
  const events = config.EVENTSTORE_URL
    ? new EsdbEventStore(config.EVENTSTORE_URL, { onAppended })
    : new SqliteEventStore(sqlite!, { onAppended });
  const reads = config.MONGODB_URL ? await MongoReadStore.connect(config.MONGODB_URL) : new SqliteReadStore(sqlite!);
  const blobs =
    config.BLOB_STORE === 'gridfs' && reads instanceof MongoReadStore
      ? new GridFsBlobStore(reads.mongoClient)
      : new LocalBlobStore(join(config.DATA_DIR, 'blobs'));
  return { sqlite, events, reads, blobs };
}

export async function closeStores(stores: Stores): Promise<void> {
  await stores.events.close();
  await stores.reads.close();
  stores.sqlite?.close();
}

/**
 * Owns the stores and the projection runner for the whole process: starts the projections once every module is
 * ready, and closes the stores last on shutdown (Nest calls this hook after the HTTP server stopped accepting and
 * in-flight requests drained).
 */
@Injectable()
class InfraLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(STORES) private readonly stores: Stores,
    private readonly runner: ProjectionRunner,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.PROJECTIONS === 'on') await this.runner.start();
    this.logger.info(
      { eventStore: this.stores.events.kind, readStore: this.stores.reads.kind, projections: this.runner.names.length },
      'stores open',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    await closeStores(this.stores);
    this.logger.info('stores closed');
  }
}

@Global()
export class InfraModule {
  static forRoot(
    config: Config,
    logger: Logger,
    projections: readonly AnyProjection[] = allProjections,
    clock: Clock = systemClock,
  ): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: CLOCK, useValue: clock },
        { provide: IDS, useValue: uuidIds },
        Metrics,
        {
          provide: STORES,
          inject: [Metrics],
          useFactory: (metrics: Metrics) => openStores(config, metrics),
        },
        { provide: EventStore, inject: [STORES], useFactory: (stores: Stores) => stores.events },
        { provide: ReadStore, inject: [STORES], useFactory: (stores: Stores) => stores.reads },
        { provide: BlobStore, inject: [STORES], useFactory: (stores: Stores) => stores.blobs },
        {
          provide: ProjectionRunner,
          inject: [STORES, Metrics],
          useFactory: ({ events, reads, sqlite }: Stores, metrics: Metrics) => {
            const runnerLogger = {
              info: (o: object, m: string) => logger.info(o, m),
              error: (o: object, m: string) => logger.error(o, m),
            };
            // The thread runs the product's own projections; a test's own list runs here.
            const threaded =
              config.PROJECTIONS_THREAD === 'on' &&
              sqlite !== null &&
              config.embedded.eventStore &&
              config.embedded.readStore &&
              projections.length === allProjections.length &&
              projections.every((projection, i) => projection === allProjections[i]);
            const runner = new ProjectionRunner(events, reads, projections, {
              logger: runnerLogger,
              ...(threaded ? { remote: new ProjectionThread(sqlite, events, runnerLogger) } : {}),
            });
            metrics.lagSource = () => runner.lastKnownLag();
            return runner;
          },
        },
        {
          provide: ResumableUploads,
          useFactory: () =>
            new ResumableUploads({ dir: config.UPLOAD_STAGING_DIR ?? join(config.DATA_DIR, 'uploads') }),
        },
        InfraLifecycle,
        OrphanSweeper,
      ],
      exports: [
        CONFIG,
        LOGGER,
        CLOCK,
        IDS,
        Metrics,
        STORES,
        EventStore,
        ReadStore,
        BlobStore,
        ProjectionRunner,
        ResumableUploads,
      ],
    };
  }
}
