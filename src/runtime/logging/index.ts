export * from './levels.js';
export * from './logger.js';
export * from './sinks.js';
