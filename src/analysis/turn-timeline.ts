// analysis 'timeline': one row per user turn — when the user spoke, when the assistant answered
// (first and last), tool calls, LLM calls and their tokens (each call once, in the turn of the
// record kept for it, so the turns add up to the session's own tokens).

import { tokenTotal, type TokenCounts } from '../core/model.js';
import { keyToIso } from '../core/time.js';
import type { StoredEvent } from '../core/events.js';
import type { FormatProfile } from '../formats/profile.js';
import type { SessionRow } from '../store/store.js';
import type { CostMode } from '../usage/cost.js';
import { costOfEvents } from '../usage/event-cost.js';
import { chosenUsage, toolCalls, turnSegments } from './session-events.js';

const ASSISTANT_KINDS = new Set(['assistant_message', 'thinking', 'tool_call', 'llm_call']);

export function tokensOf(events: readonly StoredEvent[]) {
  const t: Required<TokenCounts> = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0, reasoning: 0 };
  for (const e of events) {
    t.input += e.usage!.input;
    t.output += e.usage!.output;
    t.cacheWrite += e.usage!.cacheWrite;
    t.cacheRead += e.usage!.cacheRead;
    t.reasoning += e.usage!.reasoning ?? 0;
  }
  return { input: t.input, output: t.output, cache_write: t.cacheWrite, cache_read: t.cacheRead, ...(t.reasoning ? { reasoning: t.reasoning } : {}), total: tokenTotal(t) };
}

function stats(events: readonly StoredEvent[], chosen: ReadonlySet<StoredEvent>, ledger: string | null, mode: CostMode) {
  const calls = events.filter((e) => chosen.has(e));
  const tools = toolCalls(events, ledger);
  const assistant = events.filter((e) => e.tsKey !== null && (ASSISTANT_KINDS.has(e.kind) || e.usage !== null));
  return {
    events: events.length,
    tool_calls: tools.length,
    llm_calls: calls.length,
    tokens: tokensOf(calls),
    cost_usd: costOfEvents(calls, mode).cost_usd,
    assistant_ts: keyToIso(assistant[0]?.tsKey),
    assistant_last_ts: keyToIso(assistant[assistant.length - 1]?.tsKey),
  };
}

export function turnTimeline(session: SessionRow, profile: FormatProfile, events: readonly StoredEvent[], mode: CostMode = 'calculate') {
  const chosen = new Set(chosenUsage(profile, events));
  const ledger = profile.toolLedger(session, events);
  const { turns, before, after } = turnSegments(profile, events);
  const rows = turns.map((t) => {
    // A marker that closes its turn records the prompt with the turn's end; the turn's first event is when work began.
    const userKey = profile.turnMarker === 'closes' ? (t.events.find((e) => e.tsKey !== null)?.tsKey ?? t.marker.tsKey) : t.marker.tsKey;
    return { turn_num: t.turn, user_ts: keyToIso(userKey), ...stats(t.events, chosen, ledger, mode) };
  });
  const extra = (list: StoredEvent[]) => (list.length > 0 ? stats(list, chosen, ledger, mode) : null);
  return { turns: rows, before_first_turn: extra(before), after_last_turn: extra(after) };
}
