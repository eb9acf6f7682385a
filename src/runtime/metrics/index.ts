export * from './estimate.js';
export * from './token-counter.js';
export * from './cost-tracker.js';
export * from './step-metrics.js';
