import { type DynamicModule, Module } from '@nestjs/common';
import { DEMO_CACHE_DIR, DemoLibrary } from './demo/demo-library';
import { DEMO_OPTIONS, DemoProvisioner } from './demo/demo-provisioner';

/** The catalog: the demo material and every new account's demo tracks. */
@Module({})
export class CatalogModule {
  static forRoot(options: { demoTracks: boolean; seed?: number; cacheDir?: string }): DynamicModule {
    return {
      module: CatalogModule,
      providers: [
        DemoLibrary,
        DemoProvisioner,
        { provide: DEMO_OPTIONS, useValue: { enabled: options.demoTracks } },
        { provide: 'KORA_DEMO_SEED', useValue: options.seed ?? 7 },
        { provide: DEMO_CACHE_DIR, useValue: options.cacheDir ?? null },
      ],
      exports: [DemoLibrary],
    };
  }
}
