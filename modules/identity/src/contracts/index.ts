export * from './events';
export * from './queries';
export * from './recipient';
export * from './streams';
export * from './errors';
