export { MixingModule } from './mixing.module';
export { UnlockMix } from './contracts/commands';
