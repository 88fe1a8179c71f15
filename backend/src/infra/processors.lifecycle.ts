import { Inject, Injectable, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { EventStore, ProcessorRunner, ReadStore } from '@kora/kernel';
import { ProcessorRegistry } from '@kora/kernel/nest';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '../config/config';
import { LOGGER } from '../observability/logger';

/** Runs the modules' processors once every module has registered them (PROCESSORS=on). */
@Injectable()
export class ProcessorsLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private runner: ProcessorRunner | null = null;

  constructor(
    private readonly registry: ProcessorRegistry,
    private readonly events: EventStore,
    private readonly reads: ReadStore,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The runner (tests drain it). */
  get processors(): ProcessorRunner {
    this.runner ??= new ProcessorRunner(this.events, this.reads, this.registry.processors, {
      error: (context, message) => this.logger.error(context, message),
    });
    return this.runner;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.PROCESSORS === 'on') await this.processors.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop();
  }
}
