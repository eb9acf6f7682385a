// A session's sub-agents, forks and sidechains: the list the overview shows, and the token
// breakdown (a session's totals include its children, as ccusage counts them; `own` and
// `by_child` sit beside them so that nothing is counted twice by a reader adding up).

import { tokenTotal, type TokenCounts } from '../../core/model.js';
import type { SessionRow, Store } from '../../store/store.js';
import { clipWords, oneLine } from '../../analysis/words.js';

export interface TokenTotals {
  input_total: number;
  output_total: number;
  cache_write_total: number;
  cache_read_total: number;
  grand_total: number;
}

export function tokenTotals(t: TokenCounts): TokenTotals {
  return {
    input_total: t.input,
    output_total: t.output,
    cache_write_total: t.cacheWrite,
    cache_read_total: t.cacheRead,
    grand_total: tokenTotal(t),
  };
}

export interface SubAgentItem {
  session_id: string;
  parent_id: string | null;
  kind: string;
  agent_name: string | null;
  task: string | null;
  status: string;
  turn_count: number;
  event_count: number;
  errors: number;
  warnings: number;
  tokens_total: number;
}

export type ChildTokens = { session_id: string; agent_name: string | null; kind: string } & TokenTotals;

const TASK_CHARS = 120;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * Who a sub-agent was: its own name (Amplifier agent, Claude Code meta.json agentType), the
 * subagent_type of the Task call that spawned it, or — for a child of the session being shown —
 * the Task call found through the parent's link (call id → agent type, from the parent's events).
 */
export function agentNameOf(row: SessionRow, taskAgents?: ReadonlyMap<string, string>, links?: ReadonlyMap<string, string>): string | null {
  const attrs = row.facts.attrs ?? {};
  const own = row.agentName ?? str(attrs.subagentType) ?? str(attrs.agentType);
  if (own) return own;
  const call = links?.get(row.id) ?? str(attrs.toolUseId);
  return (call && taskAgents?.get(call)) || null;
}

/** Parents larger than this are not read just to name a sub-agent (the name stays unknown). */
const MAX_PARENT_EVENTS = 50_000;

/**
 * The agent type a sub-agent was spawned as, read from its parent's Task call when the child
 * itself does not say (a Claude Code sub-agent file without its meta.json).
 */
export async function spawnerAgentType(store: Store, row: SessionRow): Promise<string | null> {
  if (!row.parentId || (row.kind !== 'subagent' && row.kind !== 'sidechain')) return null;
  const parent = await store.getSession(row.parentId);
  if (!parent || parent.eventCount > MAX_PARENT_EVENTS) return null;
  const call = childLinks(parent).get(row.id) ?? str(row.facts.attrs?.toolUseId);
  if (!call) return null;
  const { events } = await store.sessionTimeline(parent.id, { offset: 0, limit: Number.MAX_SAFE_INTEGER, descendants: false });
  const spawn = events.find((e) => e.kind === 'tool_call' && e.ids.toolCall === call);
  return str(spawn?.attrs.subagentType);
}

/** Child session id → the tool call that spawned it, from the parent's summary (Claude Code). */
export function childLinks(parent: SessionRow): Map<string, string> {
  const links = new Map<string, string>();
  const list = parent.attrs.subagents;
  if (!Array.isArray(list)) return links;
  for (const l of list) {
    const child = str((l as Record<string, unknown>)?.childSessionId);
    const call = str((l as Record<string, unknown>)?.toolUseId);
    if (child && call) links.set(child, call);
  }
  return links;
}

export function subAgentItem(row: SessionRow, name: string | null, redact: (s: string) => string): SubAgentItem {
  const task = row.title ?? row.firstUserMessage;
  const t = row.tokensTotal;
  return {
    session_id: row.id,
    parent_id: row.parentId,
    kind: row.kind,
    agent_name: name,
    task: task ? clipWords(oneLine(redact(task)), TASK_CHARS) : null,
    status: row.status,
    turn_count: row.turnCount,
    event_count: row.eventCount,
    errors: row.errors,
    warnings: row.warnings,
    tokens_total: tokenTotal(t),
  };
}

export function childTokens(row: SessionRow, name: string | null): ChildTokens {
  return { session_id: row.id, agent_name: name, kind: row.kind, ...tokenTotals(row.tokensTotal) };
}

/** Models of the session and its descendants, first seen first. */
export function allModels(session: SessionRow, descendants: readonly SessionRow[]): string[] {
  const models: string[] = [];
  for (const r of [session, ...descendants]) for (const m of r.models) if (!models.includes(m)) models.push(m);
  return models;
}
