// analysis 'usage': LLM requests (distinct usage keys), tokens by kind, tool calls by name and
// models and cost — the session's own, counted as its summary counts them, priced like usage_report.

import { chosenUsage, toolCalls } from '../../analysis/session-events.js';
import { tokensOf } from '../../analysis/turn-timeline.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import type { SessionRow } from '../../store/store.js';
import type { CostMode } from '../../usage/cost.js';
import { costOfEvents } from '../../usage/event-cost.js';
import { PRICES_AS_OF } from '../../usage/pricing.js';
import { tokensView } from '../session-view.js';

export function usageReport(session: SessionRow, profile: FormatProfile, events: readonly StoredEvent[], mode: CostMode) {
  const chosen = chosenUsage(profile, events);
  const tokens = tokensOf(chosen);
  const byModel = new Map<string, StoredEvent[]>();
  for (const e of chosen) {
    const model = e.usage!.model ?? 'unknown';
    const list = byModel.get(model);
    if (list) list.push(e);
    else byModel.set(model, [e]);
  }
  const models = [...byModel]
    .filter(([m]) => !profile.placeholderModels.includes(m))
    .map(([model, list]) => ({ model, requests: list.length, tokens: tokensOf(list), cost_usd: costOfEvents(list, mode).cost_usd }))
    .sort((a, b) => b.requests - a.requests || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  const calls = toolCalls(events, profile.toolLedger(session, events));
  const byName = new Map<string, number>();
  for (const c of calls) byName.set(c.name, (byName.get(c.name) ?? 0) + 1);
  return {
    llm_requests: chosen.length,
    total_input_tokens: tokens.input,
    total_output_tokens: tokens.output,
    total_cache_write_tokens: tokens.cache_write,
    total_cache_read_tokens: tokens.cache_read,
    tokens,
    tokens_with_subagents: tokensView(session.tokensTotal),
    tool_calls: calls.length,
    tool_calls_by_name: Object.fromEntries([...byName].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))),
    models,
    // The session's own calls; sub-agents are priced in their own sessions (usage_report folds them in).
    cost: { ...costOfEvents(chosen, mode), mode, prices_as_of: PRICES_AS_OF },
  };
}
