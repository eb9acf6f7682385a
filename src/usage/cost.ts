// The cost of one LLM call, from its tokens and the price table, or from the cost its log
// recorded, depending on the mode.

import { findPrice, type ModelPrice, type Rates } from './pricing.js';

export const COST_MODES = ['calculate', 'display', 'auto'] as const;
export type CostMode = (typeof COST_MODES)[number];

import type { CallTokens } from '../core/events.js';

export type { CallTokens } from '../core/events.js';

export interface CallCost {
  /** null: no price for the model (calculate/auto) or no cost in the log (display). */
  usd: number | null;
  source: 'calculated' | 'recorded' | 'unpriced' | 'not_recorded';
}

/** Rates with the missing cache prices filled by the fallback rules. */
function complete(r: Rates): Required<Rates> {
  return {
    input: r.input,
    output: r.output,
    cacheWrite5m: r.cacheWrite5m ?? r.input * 1.25,
    cacheWrite1h: r.cacheWrite1h ?? r.input * 2,
    cacheRead: r.cacheRead ?? r.input * 0.1,
  };
}

/**
 * USD for one call at a model's prices. Reasoning tokens are billed at the output rate (Google bills
 * thinking as output). Long-context rates apply to the whole call, output and reasoning included,
 * when its prompt (input + cache writes + cache reads) exceeds the threshold — Anthropic's and
 * Google's rule. (ccusage prices only the tokens above 200k at the higher rate for Claude; that
 * undercounts such calls.)
 */
export function priceCall(t: CallTokens, price: ModelPrice, long: boolean = isLongContext(t, price)): number {
  const r = complete(long && price.longContext ? price.longContext : price);
  const oneHour = Math.min(Math.max(t.cacheWrite1h, 0), t.cacheWrite);
  // Sum of tokens × $/MTok, divided once: fewer rounding steps than per-token prices.
  const micro =
    t.input * r.input +
    (t.output + (t.reasoning ?? 0)) * r.output +
    (t.cacheWrite - oneHour) * r.cacheWrite5m +
    oneHour * r.cacheWrite1h +
    t.cacheRead * r.cacheRead;
  return micro / 1_000_000;
}

/** Whether one call's prompt (input + cache writes + cache reads) is over the model's long-context threshold. */
export function isLongContext(t: CallTokens, price: ModelPrice): boolean {
  return price.longContext !== undefined && t.input + t.cacheWrite + t.cacheRead > price.longContext.threshold;
}

/** The cost of a call under a mode: calculate (table), display (logged cost), auto (logged, else table). */
export function callCost(model: string | null, t: CallTokens, recordedUsd: number | null, mode: CostMode, long?: boolean): CallCost {
  if (mode !== 'calculate' && recordedUsd !== null && Number.isFinite(recordedUsd)) {
    return { usd: recordedUsd, source: 'recorded' };
  }
  if (mode === 'display') return { usd: null, source: 'not_recorded' };
  const price = findPrice(model);
  if (!price) return { usd: null, source: 'unpriced' };
  return { usd: priceCall(t, price, long ?? isLongContext(t, price)), source: 'calculated' };
}

/** Round a USD sum for output: 1e-9 keeps every real digit and drops float noise. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}
