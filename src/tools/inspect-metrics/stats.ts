// `inspect --metrics --stats`: aggregate figures over the top-level sessions started in a window
// of UTC days — outcomes, success rate, average steps and tool calls, tokens and cost, top models
// and the top failure modes. Sub-agents count in their top-level session.

import type { Format } from '../../core/model.js';
import { SYNTHETIC_MODEL } from '../../formats/claude-code/usage.js';
import type { SessionTally, Store } from '../../store/store.js';
import { loadUsageCalls, topLevelOf } from '../../usage/calls.js';
import { callCost, roundUsd, type CostMode } from '../../usage/cost.js';
import { tokensView } from '../session-view.js';
import { failureMode } from './failure-mode.js';

const TOP = 5;
const PAGE = 500;

export interface StatsOptions {
  format?: Format;
  project?: string;
  /** Inclusive window as time keys: from ≤ startedAt < before. */
  from: string;
  before: string;
  mode: CostMode;
}

/** Every session's tallies: one narrow read where the store offers it, else listSessions page by page. */
async function allSessions(store: Store): Promise<SessionTally[]> {
  if (store.sessionTallies) return store.sessionTallies();
  const out: SessionTally[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { sessions } = await store.listSessions({ limit: PAGE, offset });
    out.push(...sessions);
    if (sessions.length < PAGE) return out;
  }
}

const ranked = (m: Map<string, number>) => [...m].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, TOP);
const avg = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10) / 10);

export async function aggregateStats(store: Store, o: StatsOptions) {
  const rows = await allSessions(store);
  const roots = topLevelOf(new Map(rows.map((r) => [r.id, r])));
  const inWindow = rows.filter(
    (r) =>
      r.parentId === null &&
      r.startedAt !== null &&
      (o.format === undefined || r.format === o.format) &&
      (o.project === undefined || r.project === o.project || r.projectPath === o.project),
  ).filter((r) => {
    const key = `${r.startedAt!.slice(0, 23)}000000Z`;
    return key >= o.from && key < o.before;
  });
  const chosen = new Set(inWindow.map((r) => r.id));
  const outcome = { completed: 0, errored: 0, interrupted: 0, active: 0 };
  for (const r of inWindow) outcome[r.status]++;
  let steps = 0;
  let toolCalls = 0;
  let toolErrors = 0;
  for (const r of rows) {
    if (!chosen.has(roots.get(r.id)!.id)) continue;
    steps += r.llmCalls;
    toolCalls += r.toolCalls;
    toolErrors += r.toolErrors;
  }
  // Tokens and cost from the calls themselves (each once), so they equal usage_report's.
  const byModel = new Map<string, number>();
  const sessionsByModel = new Map<string, Set<string>>();
  const unpriced = new Set<string>();
  let usd = 0;
  let costed = 0;
  let calls = 0;
  const tokens = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  for (const c of await loadUsageCalls(store)) {
    if (!chosen.has(c.rootId)) continue;
    calls += c.calls;
    tokens.input += c.tokens.input;
    tokens.output += c.tokens.output;
    tokens.cacheWrite += c.tokens.cacheWrite;
    tokens.cacheRead += c.tokens.cacheRead;
    const model = c.model ?? '(unknown model)';
    if (model !== SYNTHETIC_MODEL) {
      byModel.set(model, (byModel.get(model) ?? 0) + c.calls);
      if (!sessionsByModel.has(model)) sessionsByModel.set(model, new Set());
      sessionsByModel.get(model)!.add(c.rootId);
    }
    const cost = callCost(c.model, c.tokens, c.recordedUsd, o.mode, c.long ?? undefined);
    if (cost.usd !== null) {
      usd += cost.usd;
      costed += c.calls;
    } else if (cost.source === 'unpriced') unpriced.add(model);
  }
  // Failure modes: read only the failed sessions' own events.
  const modes = new Map<string, number>();
  const example = new Map<string, string>();
  for (const r of inWindow.filter((x) => x.status === 'errored' || x.status === 'interrupted').sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const { events } = await store.sessionTimeline(r.id, { offset: 0, limit: Number.MAX_SAFE_INTEGER, descendants: false });
    const mode = failureMode(r, events)!;
    modes.set(mode, (modes.get(mode) ?? 0) + 1);
    if (!example.has(mode)) example.set(mode, r.id);
  }
  const ended = outcome.completed + outcome.errored + outcome.interrupted;
  const byFormat = new Map<string, number>();
  for (const r of inWindow) byFormat.set(r.format, (byFormat.get(r.format) ?? 0) + 1);
  return {
    sessions: inWindow.length,
    ...outcome,
    failed: outcome.errored + outcome.interrupted,
    success_rate: ended === 0 ? null : Math.round((outcome.completed / ended) * 1000) / 1000,
    total_steps: steps,
    avg_steps: avg(steps, inWindow.length),
    total_tool_calls: toolCalls,
    avg_tool_calls: avg(toolCalls, inWindow.length),
    tool_errors: toolErrors,
    llm_calls: calls,
    tokens: tokensView(tokens),
    cost: {
      cost_usd: costed > 0 ? roundUsd(usd) : null,
      partial: costed < calls,
      unpriced_models: [...unpriced].sort(),
      uncosted_calls: calls - costed,
      mode: o.mode,
    },
    by_format: Object.fromEntries([...byFormat].sort(([a], [b]) => (a < b ? -1 : 1))),
    top_models: ranked(byModel).map(([model, n]) => ({ model, calls: n, sessions: sessionsByModel.get(model)!.size })),
    top_failure_modes: ranked(modes).map(([mode, n]) => ({ mode, sessions: n, example_session: example.get(mode)! })),
  };
}
