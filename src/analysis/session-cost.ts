// What each session cost, for the places people look first (`hindsight show`, the `sessions`
// table, the viewer's session list and header). The figures are usage_report's: the same LLM
// calls (src/usage/calls.ts, each counted once) priced the same way (src/usage/cost.ts), so a
// session's cost here equals its row in `hindsight usage --group session`.

import type { Store } from '../store/store.js';
import { loadUsageCalls, type UsageCall } from '../usage/calls.js';
import { callCost, roundUsd, type CostMode } from '../usage/cost.js';
import { PRICES_AS_OF } from '../usage/pricing.js';

export interface SessionCost {
  /** Sum over the calls that have a price; null when none has (never a $0 stand-in). */
  cost_usd: number | null;
  /** Some calls have no price: cost_usd is then a lower bound. */
  partial: boolean;
  unpriced_models: string[];
  /** LLM calls counted (sub-agents folded into a top-level session). */
  calls: number;
}

class CostSum {
  usd = 0;
  priced = 0;
  calls = 0;
  unpriced = new Set<string>();

  add(c: UsageCall, usd: number | null, unpriced: boolean): void {
    this.calls += c.calls;
    if (usd !== null) {
      this.usd += usd;
      this.priced += c.calls;
    } else if (unpriced) this.unpriced.add(c.model ?? '(unknown model)');
  }

  result(): SessionCost {
    return {
      cost_usd: this.priced > 0 ? roundUsd(this.usd) : null,
      partial: this.priced < this.calls,
      unpriced_models: [...this.unpriced].sort(),
      calls: this.calls,
    };
  }
}

export interface SessionCosts {
  /** Session id → its cost: a top-level session with its sub-agents folded in (as usage_report's session rows), a sub-agent its own. */
  byId: Map<string, SessionCost>;
  mode: CostMode;
  prices_as_of: string;
}

/** Every session's cost, from one pass over the store's LLM calls. */
export async function sessionCosts(store: Store, mode: CostMode = 'calculate'): Promise<SessionCosts> {
  const sums = new Map<string, CostSum>();
  const sumOf = (id: string): CostSum => {
    let s = sums.get(id);
    if (!s) sums.set(id, (s = new CostSum()));
    return s;
  };
  for (const c of await loadUsageCalls(store)) {
    const cost = callCost(c.model, c.tokens, c.recordedUsd, mode, c.long ?? undefined);
    const unpriced = cost.source === 'unpriced';
    sumOf(c.rootId).add(c, cost.usd, unpriced);
    if (c.sessionId !== c.rootId) sumOf(c.sessionId).add(c, cost.usd, unpriced);
  }
  return { byId: new Map([...sums].map(([id, s]) => [id, s.result()])), mode, prices_as_of: PRICES_AS_OF };
}

/** How a cost reads in a table or a line: "$11.50", "≥ $1.20 (partial)", "unpriced", or "—" without LLM calls. */
export function costLabel(cost: SessionCost | undefined): string {
  if (!cost || cost.calls === 0) return '—';
  if (cost.cost_usd === null) return 'unpriced';
  const usd = cost.cost_usd;
  // A real but tiny cost is not shown as $0.00: that would read as free.
  const shown = usd > 0 && usd < 0.01 ? '< $0.01' : `$${usd >= 100 ? usd.toFixed(0) : usd.toFixed(2)}`;
  return cost.partial ? `≥ ${shown.replace('< ', '')} (partial)` : shown;
}
