export { AudioModule } from './audio.module';
export type { AudioOptions } from './application/audio-options';
export { JobRunner } from './application/jobs/job-runner';
export { JobQueue } from './application/jobs/job-queue';
