export * from './job-queue';
export * from './job-runner';
