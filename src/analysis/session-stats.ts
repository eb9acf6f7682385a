// Aggregates one session's own events (timeline order) into the overview's counts: tool calls,
// work orders, quality gates, events per ledger, compactions, user turns, and the facts that say
// how the session ended. Format rules come from the format's profile.

import type { StoredEvent } from '../core/events.js';
import type { EndingFacts, FormatProfile } from '../formats/profile.js';
import type { SessionRow } from '../store/store.js';
import { cleanUserText } from './user-text.js';

export interface ToolTally {
  called: number;
  succeeded: number;
  failed: number;
}

export interface ToolStats {
  total: number;
  succeeded: number;
  failed: number;
  byTool: Record<string, ToolTally>;
  /** Ledgers the calls were counted from. */
  countedFrom: string[];
  /** Names of failed calls in timeline order (repeats kept). */
  failedNames: string[];
  /** Each failed call once, in order of first sight (the overview orders them by their event). */
  failures: FailedCall[];
}

/** A failed tool call and the event that carries its failure (the result, where there is one). */
export interface FailedCall {
  name: string;
  callId: string | null;
  event: StoredEvent;
}

export interface SessionStats {
  ledgerEvents: Record<string, number>;
  tools: ToolStats;
  workOrders: { total: number; byType: Record<string, number>; byState: Record<string, number> };
  qualityGates: { passed: number; rejected: number };
  compactions: number;
  /** Every user turn's text, cleaned, in order. */
  userMessages: string[];
  ending: EndingFacts;
  /** Task/Agent tool calls: call id → the sub-agent type it asked for (names Claude Code children). */
  taskAgents: Map<string, string>;
}

const WO_TYPES = new Set(['WO_PLANNED', 'WO_DISPATCHED', 'WO_COMPLETED', 'WO_FAILED']);

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function isToolEvent(e: StoredEvent): boolean {
  // tool:error (Amplifier) is an error event that still names its tool and outcome.
  return e.kind === 'tool_call' || e.kind === 'tool_result' || (e.toolName !== null && e.toolStatus !== null);
}

/**
 * One call per tool-call id (a call and its result, or the same call seen twice), else one per
 * event. A call failed when any of its events says error; succeeded when one says ok and none
 * failed; a call without an outcome (still running, interrupted) is neither.
 */
export function tallyTools(events: readonly StoredEvent[], ledger: string | null): ToolStats {
  const calls = new Map<string, { name: string | null; ok: boolean; failed: boolean; failure: StoredEvent | null }>();
  const ledgers = new Set<string>();
  for (const e of events) {
    if (ledger !== null && e.ledger !== ledger) continue;
    if (!isToolEvent(e)) continue;
    const id = e.ids.toolCall;
    if (!id && !e.toolName) continue;
    const key = id ? `id:${id}` : `event:${e.seq}`;
    const call = calls.get(key) ?? { name: null, ok: false, failed: false, failure: null };
    if (call.name === null && e.toolName) call.name = e.toolName;
    if (e.toolStatus === 'error') {
      call.failed = true;
      // The result says what went wrong; a call event that failed is kept until a result comes.
      if (call.failure === null || (call.failure.kind !== 'tool_result' && e.kind === 'tool_result')) call.failure = e;
    }
    else if (e.toolStatus === 'ok') call.ok = true;
    calls.set(key, call);
    ledgers.add(e.ledger);
  }
  const byTool: Record<string, ToolTally> = {};
  const failedNames: string[] = [];
  const failures: FailedCall[] = [];
  let succeeded = 0;
  let failed = 0;
  for (const call of calls.values()) {
    const name = call.name ?? 'unknown';
    const t = (byTool[name] ??= { called: 0, succeeded: 0, failed: 0 });
    t.called++;
    if (call.failed) {
      t.failed++;
      failed++;
      failedNames.push(name);
      failures.push({ name, callId: call.failure!.ids.toolCall ?? null, event: call.failure! });
    } else if (call.ok) {
      t.succeeded++;
      succeeded++;
    }
  }
  // Most used first, then by name: the order a reader scans for.
  const sorted = Object.entries(byTool).sort(([a, x], [b, y]) => y.called - x.called || (a < b ? -1 : a > b ? 1 : 0));
  return { total: calls.size, succeeded, failed, byTool: Object.fromEntries(sorted), countedFrom: [...ledgers].sort(), failedNames, failures };
}

function workOrders(events: readonly StoredEvent[]): SessionStats['workOrders'] {
  const wos = new Map<string, { type: string | null; state: 'completed' | 'failed' | 'open' }>();
  for (const e of events) {
    const id = e.ids.workOrder;
    if (!id || !WO_TYPES.has(e.type)) continue;
    const wo = wos.get(id) ?? { type: null, state: 'open' as const };
    if (e.type === 'WO_COMPLETED') wo.state = 'completed';
    else if (e.type === 'WO_FAILED') wo.state = 'failed';
    else wo.type = str(e.attrs.wo_type) ?? wo.type;
    wos.set(id, wo);
  }
  if (wos.size === 0) return { total: 0, byType: {}, byState: {} };
  const byType: Record<string, number> = {};
  const byState: Record<string, number> = { completed: 0, failed: 0, open: 0 };
  for (const wo of wos.values()) {
    const type = wo.type ?? 'unknown';
    byType[type] = (byType[type] ?? 0) + 1;
    byState[wo.state] = (byState[wo.state] ?? 0) + 1;
  }
  const types = Object.entries(byType).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return { total: wos.size, byType: Object.fromEntries(types), byState };
}

function userText(e: StoredEvent): string {
  return cleanUserText(str(e.attrs.user_message) ?? e.summary);
}

/** Tool-call ids that got an outcome: a result, or a call event that carries its status (Amplifier tool:error). */
export function answeredToolCalls(events: readonly StoredEvent[]): Set<string> {
  const answered = new Set<string>();
  for (const e of events) if (e.ids.toolCall && (e.kind === 'tool_result' || e.toolStatus !== null)) answered.add(e.ids.toolCall);
  return answered;
}

function ending(profile: FormatProfile, events: readonly StoredEvent[]): EndingFacts {
  const answered = answeredToolCalls(events);
  let unansweredTool: string | null = null;
  let interruptedByUser = false;
  let lastError: string | null = null;
  for (const e of events) {
    if (e.kind === 'tool_call' && e.ids.toolCall && !answered.has(e.ids.toolCall)) unansweredTool = e.toolName ?? 'tool';
    else if (e.kind === 'user_message' && e.attrs.wrapper !== 'interrupt' && e.attrs.nonHuman !== true) unansweredTool = null;
    if (e.kind === 'user_message') interruptedByUser = e.attrs.wrapper === 'interrupt';
    if (e.kind === 'error') lastError = e.summary;
  }
  return { unansweredTool, interruptedByUser, ...profile.ending(events), lastError };
}

/** Aggregate a session's own events (timeline order). */
export function sessionStats(session: SessionRow, profile: FormatProfile, events: readonly StoredEvent[]): SessionStats {
  const ledgerEvents: Record<string, number> = {};
  // Shared ledgers are listed even when the session has no entry in one.
  for (const l of profile.sharedLedgers?.names ?? []) ledgerEvents[l] = 0;
  for (const e of events) ledgerEvents[e.ledger] = (ledgerEvents[e.ledger] ?? 0) + 1;

  const gates = { passed: 0, rejected: 0 };
  const taskAgents = new Map<string, string>();
  let compactions = 0;
  for (const e of events) {
    if (e.type === 'WO_QUALITY_GATE') {
      if (e.attrs.gate === 'reject') gates.rejected++;
      else if (e.attrs.gate === 'accept') gates.passed++;
    }
    if (e.kind === 'compaction') compactions++;
    const agentType = str(e.attrs.subagentType);
    if (e.kind === 'tool_call' && e.ids.toolCall && agentType) taskAgents.set(e.ids.toolCall, agentType);
  }
  return {
    ledgerEvents,
    tools: tallyTools(events, profile.toolLedger(session, events)),
    workOrders: workOrders(events),
    qualityGates: gates,
    compactions,
    userMessages: profile.userTurns(events).map(userText).filter((t) => t !== ''),
    ending: ending(profile, events),
    taskAgents,
  };
}
