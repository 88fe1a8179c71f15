export * from './auth';
export * from './realtime';
export * from './command-context';
export * from './processors';
export * from './jobs';
export * from './http';
