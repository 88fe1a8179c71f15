export * from './multipart';
export * from './send-blob';
export * from './close-after-answer';
export * from './resumable';
