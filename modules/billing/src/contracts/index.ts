export * from './events';
export * from './queries';
export * from './streams';
export * from './errors';
