// OpenAI's rows of the shipped price table (src/usage/pricing.ts explains the table and its sources).
//
// Source of every figure: ccusage 20.0.24's bundled, offline price data (its LiteLLM snapshot),
// read by running `ccusage codex session --json --offline` on one-call rollouts of each model
// (1M uncached input, 1M cached input, 1M output) on 2026-11-26, so Codex reports here cost what
// they cost in ccusage. Where OpenAI's page (https://openai.com/api/pricing) lists the model, the
// figures agree with it. Prompt caching is automatic and OpenAI bills no cache writes: a write
// costs the input price. Not modelled (Codex never reaches them, or Hindsight has no such axis):
// the 2×-input / 1.5×-output rate ccusage applies to a whole gpt-5.4, gpt-5.5 or gpt-5.6 call (pro
// variants included) whose prompt exceeds 272k tokens (Codex caps its window at ~258k; Hindsight's
// long-context rule has one 200k threshold for the whole table), and the priority ("fast") tier.

import { type ModelPrice } from './price-types.js';

/** A row whose cache writes cost the input price and whose cache reads cost `cacheRead`. */
function openai(model: string, input: number, cacheRead: number, output: number, aliases?: string[]): ModelPrice {
  return { model, provider: 'openai', input, output, cacheWrite5m: input, cacheWrite1h: input, cacheRead, ...(aliases ? { aliases } : {}) };
}

export const OPENAI_PRICES: readonly ModelPrice[] = [
  // GPT-5 (Aug 2025) and its Codex-tuned variants, all at GPT-5 prices.
  openai('gpt-5', 1.25, 0.125, 10),
  openai('gpt-5-codex', 1.25, 0.125, 10),
  openai('gpt-5-mini', 0.25, 0.025, 2),
  openai('gpt-5-nano', 0.05, 0.005, 0.4),
  openai('gpt-5-pro', 15, 15, 120),
  openai('gpt-5.1', 1.25, 0.125, 10),
  openai('gpt-5.1-codex', 1.25, 0.125, 10),
  openai('gpt-5.1-codex-max', 1.25, 0.125, 10),
  openai('gpt-5.1-codex-mini', 0.25, 0.025, 2),
  openai('gpt-5.2', 1.75, 0.175, 14),
  openai('gpt-5.2-codex', 1.75, 0.175, 14),
  openai('gpt-5.2-pro', 21, 21, 168),
  openai('gpt-5.3-codex', 1.75, 0.175, 14),
  // Codex logs the Spark model as `gpt-5.3-spark`; ccusage maps that label to this row.
  openai('gpt-5.3-codex-spark', 1.75, 0.175, 14, ['gpt-5.3-spark']),
  openai('gpt-5.4', 2.5, 0.25, 15),
  openai('gpt-5.4-mini', 0.75, 0.075, 4.5),
  openai('gpt-5.4-nano', 0.2, 0.02, 1.25),
  openai('gpt-5.4-pro', 30, 30, 180),
  openai('gpt-5.5', 5, 0.5, 30),
  openai('gpt-5.5-pro', 30, 30, 180),
  openai('gpt-5.6-sol', 4, 0.4, 20),
  openai('gpt-5.6-terra', 2, 0.2, 12),
  openai('gpt-5.6-luna', 0.2, 0.02, 1.2),
  // Earlier models Codex ran before GPT-5 (o4-mini was its first default), as ccusage prices them.
  openai('o3', 0.55, 0.275, 2.2),
  openai('o3-pro', 20, 20, 80),
  openai('o4-mini', 0.55, 0.1375, 2.2),
  openai('gpt-4.1', 2, 0.5, 8),
  openai('gpt-4.1-mini', 0.4, 0.1, 1.6),
  openai('gpt-4o', 2.5, 1.25, 10),
  openai('gpt-4o-mini', 0.15, 0.075, 0.6),
  openai('gpt-oss-120b', 0.15, 0.15, 0.6),
  openai('gpt-oss-20b', 0.03, 0.03, 0.13),
];
