// Control Plane entries → replay entries (mapping documented in src/tools/export-session/replay.ts). A turn is recorded
// after the fact (TURN_RECORDED holds the user's message and the response), so the user and
// assistant lines of a turn share the TURN_RECORDED time and follow the work that produced them.

import type { StoredEvent } from '../../core/events.js';
import { cutText, note } from '../shared/replay-text.js';
import type { ReplayMapper } from '../profile.js';
import { asObj, byteLen, clip, summariseArgs, type Obj } from '../shared/tool-summary.js';

/** Plumbing entries: dispatch, budget bookkeeping, shadow comparisons, and LLM_CALL (EXCHANGE says it). */
const SKIPPED = new Set(['DISPATCH', 'BUDGET_ALLOCATE', 'BUDGET_DEBIT', 'PROJECTION_SHADOW_COMPARE', 'LLM_CALL']);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function metadataOf(line: Obj | undefined): Obj {
  return asObj(line?.metadata) ?? {};
}

function toolEntries(e: StoredEvent, m: Obj): Obj[] {
  const name = e.toolName ?? str(m.tool_id) ?? 'unknown';
  const args: Obj = m.arguments !== undefined ? summariseArgs(name, m.arguments) : {};
  if (Object.keys(args).length === 0 && str(m.args_summary)) args.summary = clip(m.args_summary as string, 200);
  const call: Obj = { r: 'assistant', tool: name, args };
  const isError = e.toolStatus === 'error';
  const result: Obj = {
    r: 'user',
    tool_result: name,
    status: isError ? 'error' : 'success',
    size: typeof m.result_bytes === 'number' ? m.result_bytes : byteLen(m.result),
  };
  const error = str(m.tool_error);
  if (error !== undefined) result.msg = clip(error, 200);
  return [call, result];
}

export const planeMapper: ReplayMapper = {
  needsLine: (e) => e.type === 'TURN_RECORDED' || e.type === 'TOOL_CALL',
  map(e, line, cx) {
    if (SKIPPED.has(e.type)) return [];
    const m = metadataOf(line);
    const wo = e.ids.workOrder;
    switch (e.type) {
      case 'TURN_RECORDED': {
        const user = str(m.user_message) ?? (typeof e.attrs.user_message === 'string' ? e.attrs.user_message : '');
        const response = str(m.response) ?? (typeof e.attrs.response_preview === 'string' ? e.attrs.response_preview : '');
        const turn = typeof m.turn_number === 'number' ? { turn: m.turn_number } : {};
        return [
          { r: 'user', ...cutText(user, cx.userTextLimit), ...turn },
          { r: 'assistant', m: response },
        ];
      }
      case 'TOOL_CALL':
        return toolEntries(e, m);
      case 'WO_DISPATCHED': {
        const type = typeof e.attrs.wo_type === 'string' ? e.attrs.wo_type : 'work order';
        const tier = typeof e.attrs.tier_target === 'string' ? ` → ${e.attrs.tier_target}` : '';
        return [{ r: 'agent', ...(wo !== undefined && { agent: wo }), task: `${type}${tier}` }];
      }
      case 'WO_COMPLETED':
        return [{ r: 'agent_result', ...(wo !== undefined && { agent: wo }), status: 'completed' }];
      case 'WO_FAILED': {
        const detail = [e.attrs.error_code, e.attrs.error_message].filter((v) => typeof v === 'string').join(': ');
        return [{ r: 'agent_result', ...(wo !== undefined && { agent: wo }), status: 'failed', ...(detail && { msg: detail }) }];
      }
      case 'EXCHANGE':
        // The model is reported by the driver (ctx model); only a failed exchange is worth a line.
        return e.attrs.decision === 'ERROR' ? [note(e.summary, true)] : [];
      default: {
        const entry = note(e.summary, e.kind === 'error');
        return [wo !== undefined ? { ...entry, wo } : entry];
      }
    }
  },
};
