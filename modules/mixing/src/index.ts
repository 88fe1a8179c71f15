export { MixingModule } from './mixing.module';
