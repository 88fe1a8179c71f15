export * from './events';
export * from './queries';
export * from './status';
export * from './commands';
export * from './files';
export * from './streams';
export * from './errors';
