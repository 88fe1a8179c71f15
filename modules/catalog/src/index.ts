export { CatalogModule } from './catalog.module';
export { DemoCache } from './demo/demo-cache';
export { DemoLibrary } from './demo/demo-library';
