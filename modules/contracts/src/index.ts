/**
 * What the HTTP API and the Socket.IO socket speak, declared once: the server's modules type their answers with it and
 * the web client imports it (and nothing else of the server). Plain types and constants only, no framework.
 */
export * from './account';
export * from './billing';
export * from './errors';
export * from './health';
export * from './mixes';
export * from './mixing';
export * from './notifications';
export * from './tracks';
export * from './realtime';
