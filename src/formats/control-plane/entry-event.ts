// Turns one LedgerEntry into the event the pipeline stores: kind, actor, ids, one-line summary,
// search text, usage and the small attrs the summariser and tools read.

import type { EventUsage } from '../../core/model.js';
import type { EventInput } from '../importer.js';
import { metadataOf } from './attribution.js';
import { actorOf, isRejection, kindOf } from './classify.js';

type Obj = Record<string, unknown>;

/** Bounds of the attrs kept per event (the full entry stays in the raw line). */
export const USER_MESSAGE_CHARS = 2000;
export const RESPONSE_PREVIEW_CHARS = 200;
const ATTR_TEXT_CHARS = 200;

function bound(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
// Summary parts are clipped before joining: the pipeline bounds the summary anyway, and
// flattening whitespace over a 16 KB response per entry is measurable on big ledgers.
const clip = (v: unknown, max = 200): string => {
  const s = str(v);
  return s.length > max ? s.slice(0, max) : s;
};
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

// Scalar metadata fields worth keeping beside the event; long strings are bounded. Fields the
// event already carries elsewhere (tokens and model in usage, tool id and status in their
// columns, argument previews in the summary) are not repeated: the full entry is one raw line
// away, and every byte here is paid once per entry in the store.
const SCALAR_ATTRS = new Set([
  'wo_type', 'tier_target', 'turn_count', 'error_code', 'error_message', 'error', 'governance_violation',
  'tool_error', 'args_bytes', 'result_bytes', 'latency_ms', 'finish_reason', 'outcome', 'retry_attempt',
  'will_retry', 'retryable', 'max_retries', 'final_decision', 'intent_id', 'objective', 'remaining', 'token_limit',
  'cost_incurred', 'budget_mode', 'message', 'mode', 'error_type',
]);

// Entries whose reason is the finding itself (warnings, failures, gates); elsewhere it repeats the type.
const REASON_TYPES = new Set([
  'DEGRADATION', 'ESCALATION', 'BUDGET_WARNING', 'PROMPT_REJECTED', 'WO_FAILED', 'WO_QUALITY_GATE', 'SESSION_END',
]);

function pickAttrs(entry: Obj, m: Obj, type: string, decision: string): Obj {
  const attrs: Obj = { decision };
  const reason = str(entry.reason);
  if (reason && (REASON_TYPES.has(type) || decision.includes('ERROR'))) attrs.reason = bound(reason, ATTR_TEXT_CHARS);
  for (const k of Object.keys(m)) {
    if (!SCALAR_ATTRS.has(k)) continue;
    const v = m[k];
    if (typeof v === 'string') {
      if (v !== '') attrs[k] = bound(v, ATTR_TEXT_CHARS);
    } else if (typeof v === 'number' || typeof v === 'boolean') attrs[k] = v;
  }
  if (typeof m.model_id === 'string' && !('input_tokens' in m)) attrs.model = m.model_id;
  for (const k of ['cost', 'total_cost'] as const) {
    const c = m[k];
    if (typeof c === 'object' && c !== null && !Array.isArray(c)) {
      attrs[k] = Object.fromEntries(Object.entries(c as Obj).filter(([, v]) => typeof v === 'number'));
    }
  }
  if (type === 'WO_QUALITY_GATE') attrs.gate = isRejection(decision) ? 'reject' : 'accept';
  if (type === 'TURN_RECORDED') {
    attrs.user_message = bound(str(m.user_message), USER_MESSAGE_CHARS);
    attrs.response_preview = bound(str(m.response), RESPONSE_PREVIEW_CHARS);
    attrs.response_chars = str(m.response).length;
  }
  return attrs;
}

function tokensText(m: Obj): string {
  return `${num(m.input_tokens)} in / ${num(m.output_tokens)} out tokens`;
}

function summaryOf(entry: Obj, m: Obj, type: string, decision: string, workOrder: string | undefined, sessionId: string): string {
  const reason = clip(entry.reason);
  const wo = workOrder ?? '';
  switch (type) {
    case 'SESSION_START':
      return `Session ${sessionId} started`;
    case 'SESSION_END':
      return `Session ended after ${num(m.turn_count)} turns`;
    case 'TURN_RECORDED':
      return `Turn ${num(m.turn_number)}: ${clip(m.user_message)} → ${clip(m.response)}`;
    case 'WO_PLANNED':
    case 'WO_DISPATCHED':
      return `${type} ${wo} (${str(m.wo_type) || 'unknown type'} → ${str(m.tier_target) || '?'})`;
    case 'WO_QUALITY_GATE':
      return `Quality gate ${decision} for ${wo}: ${reason}`;
    case 'LLM_CALL':
      return `LLM call ${str(m.model_id)}: ${tokensText(m)}, ${Math.round(num(m.latency_ms))} ms`;
    case 'EXCHANGE':
      return decision === 'ERROR'
        ? `Exchange ${str(entry.submission_id)} failed: ${str(m.error_code)} ${clip(m.error_message)}${m.will_retry === true ? ' (will retry)' : ''}`
        : `Exchange ${str(entry.submission_id)} ${str(m.model_id)}: ${tokensText(m)}, ${str(m.finish_reason) || decision}`;
    case 'TOOL_CALL':
      return `Tool ${str(m.tool_id)} ${str(m.status)}${clip(m.tool_error) ? `: ${clip(m.tool_error)}` : ''} (${clip(m.args_summary)})`;
    case 'WO_COMPLETED':
      return `${wo} completed`;
    case 'WO_FAILED':
      return `${wo} failed: ${str(m.error_code)}: ${clip(m.error_message)}`;
    case 'BUDGET_WARNING':
      return `Budget warning: ${clip(m.message) || reason}`;
    default:
      return reason ? `${type}: ${reason}` : `${type} ${decision}`;
  }
}

/**
 * The one canonical carrier of token usage. The gateway's EXCHANGE, the executor's LLM_CALL and
 * the budgeter's BUDGET_DEBIT all repeat the same call's tokens; summing them would double or
 * triple totals (the original tools' bug). EXCHANGE is chosen because the gateway sees every
 * provider round-trip: in the normal fixture, per session, the SUCCESS exchanges' tokens equal
 * the LLM_CALL and BUDGET_DEBIT sums, except that degraded-mode calls (PRC-DEGRADED-001, made
 * by the session host after a DEGRADATION) appear only as EXCHANGE, and calls that failed after
 * retries appear as a 0-token LLM_CALL beside their ERROR exchanges. Every EXCHANGE carries
 * usage (zero for errors), so `llmCalls` counts provider attempts and failures are visible.
 */
function usageOf(m: Obj, type: string, key: string): EventUsage | undefined {
  if (type !== 'EXCHANGE') return undefined;
  return {
    key,
    model: typeof m.model_id === 'string' ? m.model_id : null,
    input: num(m.input_tokens),
    output: num(m.output_tokens),
    cacheWrite: 0,
    cacheRead: 0,
  };
}

export interface EntryEventInput {
  entry: Obj;
  ledger: string;
  sessionId: string;
  workOrder: string | undefined;
  /** Fallback identity when the entry has no id (file:line). */
  where: string;
}

/** The event for one entry (timestamp left to the caller, which knows whether it is missing). */
export function entryEvent({ entry, ledger, sessionId, workOrder, where }: EntryEventInput): EventInput {
  const m = metadataOf(entry);
  const type = str(entry.event_type);
  const decision = str(entry.decision);
  const id = str(entry.id);
  const event: EventInput = {
    sessionId,
    type,
    kind: kindOf(type, decision),
    actor: actorOf(ledger, type, m, str(entry.submission_id)),
    turn: typeof m.turn_number === 'number' ? m.turn_number : null,
    ids: { ...(id ? { entry: id } : {}), ...(workOrder ? { workOrder } : {}) },
    tiebreak: id,
    summary: summaryOf(entry, m, type, decision, workOrder, sessionId),
    attrs: pickAttrs(entry, m, type, decision),
  };
  const usage = usageOf(m, type, `exchange:${id || where}`);
  if (usage) event.usage = usage;
  if (type === 'TOOL_CALL') {
    event.toolName = str(m.tool_id) || 'unknown';
    // status is 'ok' / 'error' (formats.md); without one, a tool_error decides.
    event.toolStatus = m.status === 'ok' || (m.status !== 'error' && !str(m.tool_error)) ? 'ok' : 'error';
  }
  if (type === 'TURN_RECORDED') event.text = `${str(m.user_message)}\n\n${str(m.response)}`;
  return event;
}
