export * from './events';
export * from './queries';
export * from './commands';
export * from './streams';
export * from './errors';
