export * from './span-tracer.js';
