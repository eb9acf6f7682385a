// The token counter and the cost tracker together, as the session uses them once per model step:
// usage (reported or estimated), its cost, and the running totals.

import type { ChatMessage, ChatResponse, ProviderUsage } from '../model/chat.js';
import { CostTracker, type TurnCost } from './cost-tracker.js';
import { TokenCounter, type UsageSource } from './token-counter.js';

export interface StepRecord {
  usage: ProviderUsage;
  source: UsageSource;
  costUsd: number | null;
  /** Why costUsd is null, when it is. */
  costWarning: string | null;
}

export class StepMetrics {
  constructor(
    readonly tokens: TokenCounter,
    readonly cost: CostTracker,
    private readonly pricing: { model: string; local: boolean },
  ) {}

  recordStep(step: { request: readonly ChatMessage[]; response: ChatResponse }): StepRecord {
    const usage = this.tokens.usageFor(step.request, step.response);
    this.tokens.recordTurn(usage);
    // The model that answered, as the provider named it, is priced; the configured one when absent.
    const model = step.response.model || this.pricing.model;
    const cost: TurnCost = this.cost.recordTurn({ model, usage: usage.usage, local: this.pricing.local });
    return { usage: usage.usage, source: usage.source, costUsd: cost.usd, costWarning: cost.warning };
  }

  /** Session totals; costUsd is null once any step could not be priced (the total is then unknown). */
  totals(): { usage: ProviderUsage; costUsd: number | null } {
    const c = this.tokens.getCumulative();
    const usage: ProviderUsage = {
      inputTokens: c.inputTokens,
      outputTokens: c.outputTokens,
      cacheReadTokens: c.cacheReadTokens,
      cacheCreationTokens: c.cacheCreationTokens,
      reasoningTokens: c.reasoningTokens,
    };
    return { usage, costUsd: this.cost.unpricedTurns > 0 ? null : this.cost.cumulativeCost };
  }

  isOverBudget(maxUsd: number): boolean {
    return this.cost.isOverBudget(maxUsd);
  }
}
