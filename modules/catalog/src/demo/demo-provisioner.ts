import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ProvisionDemoTrack } from '@kora/audio';
import type { AccountRegistered } from '@kora/identity/contracts';
import type { RecordedEvent } from '@kora/kernel';
import { ProcessorRegistry } from '@kora/kernel/nest';
import { createHash } from 'node:crypto';
import { DemoLibrary } from './demo-library';

export const DEMO_OPTIONS = Symbol.for('kora.catalog.demo');

/** A stable track id per account and service: the same account never gets a demo twice. */
export function demoTrackId(userId: string, service: string): string {
  const hex = createHash('sha256').update(`demo\u0000${userId}\u0000${service}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Gives every new account one demo track per service (mastering, stems, enhancement), already processed. */
@Injectable()
export class DemoProvisioner implements OnModuleInit {
  constructor(
    private readonly registry: ProcessorRegistry,
    private readonly library: DemoLibrary,
    private readonly commands: CommandBus,
    @Inject(DEMO_OPTIONS) private readonly options: { enabled: boolean },
  ) {}

  onModuleInit(): void {
    if (!this.options.enabled) return;
    this.registry.register({
      name: 'demo-tracks',
      handles: ['AccountRegistered'],
      handle: (event) => this.provision(event as RecordedEvent<AccountRegistered>),
    });
  }

  async provision(event: RecordedEvent<AccountRegistered>): Promise<void> {
    const userId = event.data.userId;
    const demos = await this.library.demos();
    for (const [service, demo] of Object.entries(demos)) {
      if (!demo) continue;
      const { files, stems, options, ...material } = demo;
      await this.commands.execute(
        new ProvisionDemoTrack(userId, demoTrackId(userId, service), service as never, material, files, stems, options),
      );
    }
  }
}
