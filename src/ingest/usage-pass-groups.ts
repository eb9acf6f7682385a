// The usage pass's calls grouped as the store groups its usage_calls table: what a usage report
// reads (Store.usageCallGroups). Groups never span sessions, so a session group's calls can be
// grouped on the thread that read them (usage-pass-split.ts) and the groups simply put together.

import type { LlmCall } from '../core/events.js';
import { keyToParts } from '../core/time.js';
import type { UsageCallGroupRow } from '../store/store.js';

const DAY_MS = 86_400_000;

/**
 * The calls grouped as Store.usageCallGroups groups the usage_calls table (store/core/usage-calls.ts):
 * per session, UTC day, model, long-context side and recorded-cost presence.
 */
export function groupUsageCalls(calls: readonly { sessionId: string; call: LlmCall }[], threshold: number): UsageCallGroupRow[] {
  const groups = new Map<string, UsageCallGroupRow>();
  for (const { sessionId, call: c } of calls) {
    const ms = c.tsKey === null ? null : keyToParts(c.tsKey)[0];
    // Integer division truncating toward zero, as both engines' SQL does.
    const day = ms === null ? null : Math.trunc(ms / DAY_MS);
    const long = c.input + c.cacheWrite + c.cacheRead > threshold;
    const hasCost = c.costUsd !== null;
    // Unambiguous without JSON: the id's length bounds it, the day and flags have fixed shapes, and
    // a model is tagged apart from none.
    const key = `${sessionId.length}:${sessionId}${day}|${long ? 1 : 0}${hasCost ? 1 : 0}${c.model === null ? '-' : `=${c.model}`}`;
    let g = groups.get(key);
    if (!g) {
      g = { sessionId, model: c.model, long, calls: 0, firstMs: null, lastMs: null, input: 0, output: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0, reasoning: 0, recordedUsd: hasCost ? 0 : null };
      groups.set(key, g);
    }
    g.calls++;
    if (ms !== null) {
      if (g.firstMs === null || ms < g.firstMs) g.firstMs = ms;
      if (g.lastMs === null || ms > g.lastMs) g.lastMs = ms;
    }
    g.input += c.input;
    g.output += c.output;
    g.cacheWrite += c.cacheWrite;
    g.cacheWrite1h += c.cacheWrite1h;
    g.cacheRead += c.cacheRead;
    g.reasoning += c.reasoning ?? 0;
    if (hasCost) g.recordedUsd = g.recordedUsd! + c.costUsd!;
  }
  return [...groups.values()];
}
