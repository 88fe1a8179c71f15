export * from './events';
export * from './queries';
