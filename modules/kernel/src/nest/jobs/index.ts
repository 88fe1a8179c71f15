export * from './job-queue';
export * from './job-requests';
export * from './job-runner';
