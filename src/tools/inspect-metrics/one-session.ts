// `inspect --metrics --session ID`: one session's figures and its per-turn timeline (when the
// user spoke, how long the answer took, steps, tool calls, tokens and cost per turn).

import { keyToMillis, toTimeKey } from '../../core/time.js';
import { redactText } from '../../core/redact.js';
import type { SessionRow, Store } from '../../store/store.js';
import type { CostMode } from '../../usage/cost.js';
import { costOfEvents } from '../../usage/event-cost.js';
import { turnTimeline } from '../../analysis/turn-timeline.js';
import { tokensView } from '../session-view.js';
import { familyDigest } from './family.js';
import { failureMode } from './failure-mode.js';

const FILES_LISTED = 50;

function spanMs(from: string | null, to: string | null): number | null {
  const a = toTimeKey(from);
  const b = toTimeKey(to);
  return a === null || b === null ? null : Math.max(0, keyToMillis(b) - keyToMillis(a));
}

export async function sessionMetrics(store: Store, session: SessionRow, mode: CostMode, redact: boolean) {
  const d = await familyDigest(store, session);
  // The merged family timeline filtered to one session is that session's own timeline.
  const own = d.eventsOf.get(session.id) ?? [];
  const t = turnTimeline(session, d.profile, own, mode);
  const turns = t.turns.map((row) => ({ ...row, duration_ms: spanMs(row.user_ts, row.assistant_last_ts ?? row.user_ts) }));
  const files = redact ? d.files.map(redactText) : d.files;
  const subagents = d.rows.slice(1).map((r) => {
    const calls = d.calls.filter((c) => c.sessionId === r.id);
    return {
      session_id: r.id,
      kind: r.kind,
      status: r.status,
      steps: r.llmCalls,
      tool_calls: r.toolCalls,
      tokens: tokensView(r.tokensOwn),
      cost_usd: costOfEvents(calls, mode).cost_usd,
    };
  });
  return {
    session: {
      session_id: session.id,
      format: session.format,
      project: session.project,
      status: session.status,
      failure_mode: failureMode(session, own),
      model: d.model,
      started_at: session.startedAt,
      ended_at: session.endedAt,
      duration_ms: spanMs(session.startedAt, session.endedAt),
      turns: session.turnCount,
      steps: d.steps,
      tool_calls: d.toolCalls,
      tool_errors: d.toolErrors,
      files_touched: files.length,
      files: files.slice(0, FILES_LISTED),
      tokens: tokensView(session.tokensTotal),
      cost: { ...costOfEvents(d.calls, mode), mode },
    },
    subagents,
    turns,
    before_first_turn: t.before_first_turn,
    after_last_turn: t.after_last_turn,
  };
}
