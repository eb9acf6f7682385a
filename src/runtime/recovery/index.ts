export * from './classify.js';
export * from './recovery-manager.js';
