// Maps a ledger entry's event_type and decision to the shared event kind, and names who wrote it.

import type { EventKind } from '../../core/model.js';

const FIXED_KINDS: Record<string, EventKind> = {
  SESSION_START: 'session_start',
  SESSION_END: 'session_end',
  // One TURN_RECORDED carries both the user's message and the final response; the user's side
  // is what starts a turn, so that is its kind (the response is in its text and attrs).
  TURN_RECORDED: 'user_message',
  LLM_CALL: 'llm_call',
  TOOL_CALL: 'tool_call',
  DEGRADATION: 'error',
  WO_FAILED: 'error',
  BUDGET_WARNING: 'warning',
  ESCALATION: 'warning',
  PROMPT_REJECTED: 'warning',
};

const SYSTEM_TYPES = new Set([
  'WO_PLANNED',
  'WO_DISPATCHED',
  'WO_COMPLETED',
  'WO_CHAIN_COMPLETE',
  'WO_QUALITY_GATE',
  'INTENT_DECLARED',
  'INTENT_SUPERSEDED',
  'INTENT_CLOSED',
  'PROJECTION_SHADOW_COMPARE',
  'DISPATCH',
  'BUDGET_ALLOCATE',
  'BUDGET_DEBIT',
]);

/** True when a quality gate (or its escalation) rejected the output. */
export function isRejection(decision: string): boolean {
  return decision.toUpperCase().startsWith('REJECT');
}

export function kindOf(type: string, decision: string): EventKind {
  if (type === 'EXCHANGE') return decision === 'ERROR' ? 'error' : 'llm_call';
  if (type === 'WO_QUALITY_GATE') return isRejection(decision) ? 'warning' : 'system';
  return FIXED_KINDS[type] ?? (SYSTEM_TYPES.has(type) ? 'system' : 'other');
}

/**
 * Who wrote the entry: the supervisor (ho2) or the user for turns in ho2m, the executor (ho1) in
 * ho1m; in governance the budgeter (scope-keyed entries), the LLM gateway (contract-keyed
 * entries) or the session host.
 */
export function actorOf(ledger: string, type: string, metadata: Record<string, unknown>, submissionId: string): string {
  if (ledger === 'ho2m') return type === 'TURN_RECORDED' ? 'user' : 'ho2';
  if (ledger === 'ho1m') return 'ho1';
  if (typeof metadata.scope_key === 'string' || type === 'BUDGET_ALLOCATE' || type === 'BUDGET_DEBIT') return 'budgeter';
  if (typeof metadata.contract_id === 'string' || submissionId.startsWith('PRC-')) return 'gateway';
  if (submissionId.startsWith('PKG-SESSION-HOST')) return 'session_host';
  return 'governance';
}
