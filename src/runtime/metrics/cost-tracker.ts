// What a session's model calls cost (seed §10), on Hindsight's shipped price table. The table and
// its pricing rules live in src/usage/ (pricing.ts, cost.ts), a layer above the runtime; the
// tracker takes the pricing function from whoever builds the session, so the rates exist once:
//
//   new CostTracker({ priceCall: (model, tokens) => callCost(model, tokens, null, 'calculate').usd })
//
// A model the config marks local costs $0. A hosted model the table does not know costs null, with
// a warning: never $0, so a budget is not silently ignored.

import type { CallTokens } from '../../core/events.js';
import type { ProviderUsage } from '../model/chat.js';

/** USD for one call of `model` with these tokens, or null when the table has no price for it. */
export type CallPricer = (model: string, tokens: CallTokens) => number | null;

export interface TurnCostInput {
  model: string;
  usage: ProviderUsage;
  /** The provider config marks the model as running locally (vLLM, llama.cpp, Ollama on this machine). */
  local?: boolean;
}

export interface TurnCost {
  usd: number | null;
  source: 'local' | 'calculated' | 'unpriced';
  /** Set when the cost is unknown: what to tell the user. */
  warning: string | null;
}

/**
 * The tokens of a provider usage in the price table's terms. Reasoning tokens are not added: the
 * providers that report them apart (OpenAI) count them inside output tokens already.
 */
export function callTokensOf(usage: ProviderUsage): CallTokens {
  return {
    input: usage.inputTokens,
    output: usage.outputTokens,
    cacheWrite: usage.cacheCreationTokens,
    cacheWrite1h: 0,
    cacheRead: usage.cacheReadTokens,
  };
}

export class CostTracker {
  private spent = 0;
  private priced = 0;
  private unpriced = 0;

  constructor(private readonly options: { priceCall: CallPricer }) {}

  estimateTurnCost(input: TurnCostInput): TurnCost {
    if (input.local) return { usd: 0, source: 'local', warning: null };
    const usd = this.options.priceCall(input.model, callTokensOf(input.usage));
    if (usd === null || !Number.isFinite(usd)) {
      return {
        usd: null,
        source: 'unpriced',
        warning: `no price is known for the model "${input.model}"; its cost is not counted (mark the provider local in the config if it runs on this machine)`,
      };
    }
    return { usd, source: 'calculated', warning: null };
  }

  /** Price one model call and add it to the session's cost. */
  recordTurn(input: TurnCostInput): TurnCost {
    const cost = this.estimateTurnCost(input);
    if (cost.usd === null) this.unpriced++;
    else {
      this.spent += cost.usd;
      this.priced++;
    }
    return cost;
  }

  /** USD of every priced call so far (unpriced calls add nothing; see unpricedTurns). */
  get cumulativeCost(): number {
    return this.spent;
  }

  get pricedTurns(): number {
    return this.priced;
  }

  get unpricedTurns(): number {
    return this.unpriced;
  }

  /**
   * Whether the spend has reached `maxUsd` (the --budget flag). Nothing spent never exhausts a
   * budget, so local models run under any budget, --budget 0 included.
   */
  isOverBudget(maxUsd: number): boolean {
    if (!Number.isFinite(maxUsd) || maxUsd < 0) throw new Error(`isOverBudget: the budget must be a number of USD ≥ 0, got ${maxUsd}`);
    return this.spent > 0 && this.spent >= maxUsd;
  }
}
