export { AudioModule } from './audio.module';
export type { AudioOptions } from './application/audio-options';
export { ProvisionDemoTrack, UnlockTrack } from './contracts/commands';
