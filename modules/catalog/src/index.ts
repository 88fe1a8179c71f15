export { CatalogModule } from './catalog.module';
export { DemoLibrary } from './demo/demo-library';
