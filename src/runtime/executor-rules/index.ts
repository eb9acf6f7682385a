export * from './select-dispatch.js';
