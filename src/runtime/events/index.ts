export * from './event-bus.js';
export * from './runtime-events.js';
export * from './permission-policy.js';
