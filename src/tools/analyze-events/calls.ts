// analysis 'calls': one row per LLM call of the session (its own calls, each once: chosenUsage),
// with its tokens, cost and latency — the series behind the viewer's per-call chart, where a
// per-turn chart of a one-prompt session is a single bar.
//
// Latency is what the log says: Control Plane's `latency_ms`, Amplifier's `duration_ms` on the
// response event; for Claude Code, which records no duration, the time from the event before the
// call (the prompt or the tool result sent with the request) to the call's first response line.
// null where neither is known (the first event, a call without a time).

import { chosenUsage } from '../../analysis/session-events.js';
import { tokensOf } from '../../analysis/turn-timeline.js';
import { keyToIso, keyToMillis } from '../../core/time.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import { callCost, type CostMode } from '../../usage/cost.js';
import { eventCallTokens, finiteNumber, recordedUsd } from '../../usage/event-cost.js';

export interface CallRow {
  call_num: number;
  ts: string | null;
  model: string | null;
  tokens: { input: number; output: number; cache_write: number; cache_read: number; total: number };
  /** null: the model has no price (never a $0 stand-in). */
  cost_usd: number | null;
  latency_ms: number | null;
  /** Where the latency comes from: logged by the agent, or measured between log lines. */
  latency_source: 'logged' | 'between_lines' | null;
}

function loggedLatency(e: StoredEvent): number | null {
  return finiteNumber(e.attrs.latency_ms) ?? finiteNumber(e.attrs.durationMs);
}

/** Each call's first line and the event before it, by usage key (events in timeline order). */
function requestStarts(events: readonly StoredEvent[]): Map<string, number | null> {
  const starts = new Map<string, number | null>();
  let prev: StoredEvent | undefined;
  for (const e of events) {
    const key = e.usage?.key;
    if (key !== undefined && !starts.has(key)) {
      const from = prev?.tsKey && e.tsKey ? keyToMillis(e.tsKey) - keyToMillis(prev.tsKey) : null;
      starts.set(key, from !== null && Number.isFinite(from) && from >= 0 ? from : null);
    }
    // Lines of the same response (one per content block) share the key: the gap is measured from before the first.
    if (key === undefined || prev?.usage?.key !== key) prev = e;
  }
  return starts;
}

export function callRows(profile: FormatProfile, events: readonly StoredEvent[], mode: CostMode): CallRow[] {
  const measured = requestStarts(events);
  return chosenUsage(profile, events).map((e, i) => {
    const u = e.usage!;
    const logged = loggedLatency(e);
    const between = profile.latencyBetweenLines ? (measured.get(u.key) ?? null) : null;
    const latency = logged ?? between;
    return {
      call_num: i + 1,
      ts: keyToIso(e.tsKey),
      model: u.model ?? null,
      tokens: tokensOf([e]),
      cost_usd: callCost(u.model ?? null, eventCallTokens(e), recordedUsd(e.attrs.costUsd), mode).usd,
      latency_ms: latency === null ? null : Math.round(latency),
      latency_source: logged !== null ? 'logged' : between !== null ? 'between_lines' : null,
    };
  });
}
