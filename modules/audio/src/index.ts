export { AudioModule } from './audio.module';
export type { AudioOptions } from './application/audio-options';
export { ProvisionDemoTrack } from './contracts/commands';
