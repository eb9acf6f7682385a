// OpenAI's rows of the shipped price table (src/usage/pricing.ts explains the table and its sources).

import { type ModelPrice } from './price-types.js';

export const OPENAI_PRICES: readonly ModelPrice[] = [
  // OpenAI: prompt caching is automatic and writes cost the normal input price.
  { model: 'gpt-5', provider: 'openai', input: 1.25, output: 10, cacheWrite5m: 1.25, cacheWrite1h: 1.25, cacheRead: 0.125 },
  { model: 'gpt-5-mini', provider: 'openai', input: 0.25, output: 2, cacheWrite5m: 0.25, cacheWrite1h: 0.25, cacheRead: 0.025 },
  { model: 'gpt-5-nano', provider: 'openai', input: 0.05, output: 0.4, cacheWrite5m: 0.05, cacheWrite1h: 0.05, cacheRead: 0.005 },
];
