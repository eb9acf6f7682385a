// Google's rows of the shipped price table (src/usage/pricing.ts explains the table and its sources).

import { LONG_CONTEXT_THRESHOLD, type ModelPrice } from './price-types.js';

export const GOOGLE_PRICES: readonly ModelPrice[] = [
  // Google: implicit caching has no write premium (storage is billed per hour, outside a call).
  { model: 'gemini-3-flash-preview', provider: 'google', input: 0.5, output: 3, cacheWrite5m: 0.5, cacheWrite1h: 0.5, cacheRead: 0.05, aliases: ['gemini-3-flash'] },
  {
    model: 'gemini-3.1-pro-preview',
    provider: 'google',
    input: 2,
    output: 12,
    cacheWrite5m: 2,
    cacheWrite1h: 2,
    cacheRead: 0.2,
    aliases: ['gemini-3-pro-preview', 'gemini-3-pro', 'gemini-3.1-pro'],
    longContext: { threshold: LONG_CONTEXT_THRESHOLD, input: 4, output: 18, cacheWrite5m: 4, cacheWrite1h: 4, cacheRead: 0.4 },
  },
];
