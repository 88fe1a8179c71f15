import { Injectable } from '@nestjs/common';
import type { Processor } from '../processor';

/** Where modules register their processors (in `onModuleInit`); the application runs them once every module is ready. */
@Injectable()
export class ProcessorRegistry {
  private readonly registered: Processor[] = [];

  register(processor: Processor): void {
    if (this.registered.some((existing) => existing.name === processor.name)) {
      throw new Error(`Processor ${processor.name} registered twice`);
    }
    this.registered.push(processor);
  }

  get processors(): readonly Processor[] {
    return this.registered;
  }
}
