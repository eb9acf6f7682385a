// The cost of stored events that carry usage (the records chosen as LLM calls), for tools that
// work on one session's events rather than the store-wide call list (analyze_events, inspect).

import type { StoredEvent } from '../formats/importer.js';
import { callTokensOf } from '../core/llm-calls.js';
import { callCost, roundUsd, type CostMode } from './cost.js';

export interface EventsCost {
  /** Sum over the calls that have a cost; null when none has. */
  cost_usd: number | null;
  /** Some calls have no cost: cost_usd is then a lower bound, never a $0 stand-in. */
  partial: boolean;
  unpriced_models: string[];
  uncosted_calls: number;
}

/** A finite number, or null. */
export const finiteNumber = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** A cost as logged: a number or numeric text (Amplifier writes "0.0123"), else null. */
export const recordedUsd = (v: unknown): number | null => (typeof v === 'string' && v.trim() !== '' ? finiteNumber(Number(v)) : finiteNumber(v));

/** One usage-carrying event's tokens as the price table reads them (the one rule, core/llm-calls.ts). */
export const eventCallTokens = callTokensOf;

/** Cost of LLM-call events (each one call: pass the chosen records only). */
export function costOfEvents(calls: readonly StoredEvent[], mode: CostMode = 'calculate'): EventsCost {
  let total = 0;
  let costed = 0;
  const unpriced = new Set<string>();
  for (const e of calls) {
    if (!e.usage) continue;
    const c = callCost(e.usage.model, eventCallTokens(e), recordedUsd(e.attrs.costUsd), mode);
    if (c.usd !== null) {
      total += c.usd;
      costed++;
    } else if (c.source === 'unpriced') unpriced.add(e.usage.model ?? '(unknown model)');
  }
  const withUsage = calls.filter((e) => e.usage).length;
  return {
    cost_usd: costed > 0 ? roundUsd(total) : null,
    partial: costed < withUsage,
    unpriced_models: [...unpriced].sort(),
    uncosted_calls: withUsage - costed,
  };
}
