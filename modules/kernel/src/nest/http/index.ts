export * from './multipart';
export * from './send-blob';
