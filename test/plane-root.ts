// A small Control Plane root for tests: entries written exactly as LedgerClient writes them
// (Python isoformat times, sorted-key SHA-256 hash chain), from a readable list of entries.
// The seed documents' test plans are written against roots built with this.

import { join } from 'node:path';
import { LedgerWriter, type EntryBody } from '../bench/generators/control-plane-writer.js';
import type { PyValue } from '../bench/generators/control-plane-pyjson.js';

export type LedgerName = 'ho2m' | 'ho1m' | 'governance';

export interface PlaneEntry {
  ledger: LedgerName;
  event_type: string;
  submission_id?: string;
  decision?: string;
  reason?: string;
  metadata?: { [key: string]: PyValue | undefined };
  /** Seconds after the root's start time (entries may share a time). */
  at: number;
}

const DIRS: Record<LedgerName, [string, string]> = {
  ho2m: ['HO2/ledger', 'ho2m'],
  ho1m: ['HO1/ledger', 'ho1m'],
  governance: ['HOT/ledger', 'governance'],
};

/** 2026-02-17T14:30:00Z in microseconds. */
export const PLANE_START_MICROS = Date.UTC(2026, 1, 17, 14, 30, 0) * 1000;

/**
 * Write the entries into `dir` (a plane root: HO2/, HO1/, HOT/ ledgers). Entries keep their
 * order within each ledger; ids are LED-00000001… in writing order. Every ledger file is
 * created, empty when it has no entry. `rotateBytes` rotates ledgers into named segments.
 */
export function writePlaneRoot(dir: string, entries: PlaneEntry[], options: { rotateBytes?: number } = {}): string {
  const writers = new Map<LedgerName, LedgerWriter>();
  for (const name of Object.keys(DIRS) as LedgerName[]) {
    const [sub, stem] = DIRS[name];
    writers.set(name, new LedgerWriter(join(dir, sub), stem, options.rotateBytes));
  }
  entries.forEach((e, i) => {
    const body: EntryBody = {
      event_type: e.event_type,
      submission_id: e.submission_id ?? '',
      decision: e.decision ?? '',
      reason: e.reason ?? '',
      prompts_used: [],
      metadata: e.metadata ?? {},
    };
    writers.get(e.ledger)!.append(body, PLANE_START_MICROS + Math.round(e.at * 1e6), String(i + 1).padStart(8, '0'));
  });
  for (const w of writers.values()) w.close();
  return dir;
}

const prov = (session: string, wo?: string) => ({
  provenance: { agent_id: 'admin-001', agent_class: 'ADMIN', session_id: session, ...(wo ? { work_order_id: wo } : {}) },
});

/** Builders for the entries the forensic tools read, with the fields the real writers put in them. */
export const cp = {
  sessionStart: (session: string, at: number): PlaneEntry => ({
    ledger: 'ho2m', event_type: 'SESSION_START', submission_id: session, decision: 'STARTED', reason: 'session started', metadata: prov(session), at,
  }),
  sessionEnd: (session: string, turns: number, at: number): PlaneEntry => ({
    ledger: 'ho2m', event_type: 'SESSION_END', submission_id: session, decision: 'ENDED', reason: 'session ended',
    metadata: { ...prov(session), turn_count: turns, total_cost: { input_tokens: 0, output_tokens: 0 } }, at,
  }),
  turn: (session: string, turn: number, user: string, response: string, at: number): PlaneEntry => ({
    ledger: 'ho2m', event_type: 'TURN_RECORDED', submission_id: session, decision: 'RECORDED', reason: `turn ${turn}`,
    metadata: { ...prov(session), turn_number: turn, user_message: user, response }, at,
  }),
  woPlanned: (session: string, wo: string, woType: string, at: number): PlaneEntry => ({
    ledger: 'ho2m', event_type: 'WO_PLANNED', submission_id: wo, decision: 'PLANNED', reason: `${woType} planned`,
    metadata: { ...prov(session, wo), wo_type: woType, tier_target: 'HO1' }, at,
  }),
  qualityGate: (session: string, wo: string, accept: boolean, at: number): PlaneEntry => ({
    ledger: 'ho2m', event_type: 'WO_QUALITY_GATE', submission_id: session, decision: accept ? 'ACCEPT' : 'REJECT',
    reason: accept ? 'output accepted' : 'output rejected: missing fields', metadata: prov(session, wo), at,
  }),
  degradation: (session: string, error: string, at: number): PlaneEntry => ({
    ledger: 'ho2m', event_type: 'DEGRADATION', submission_id: session, decision: 'DEGRADED', reason: error,
    metadata: { ...prov(session), governance_violation: false, error }, at,
  }),
  llmCall: (session: string, wo: string, input: number, output: number, at: number): PlaneEntry => ({
    ledger: 'ho1m', event_type: 'LLM_CALL', submission_id: wo, decision: 'SUCCESS', reason: 'llm call',
    metadata: { ...prov(session, wo), input_tokens: input, output_tokens: output, model_id: 'claude-sonnet-4-5', latency_ms: 900 }, at,
  }),
  toolCall: (session: string, wo: string, tool: string, ok: boolean, at: number): PlaneEntry => ({
    ledger: 'ho1m', event_type: 'TOOL_CALL', submission_id: wo, decision: ok ? 'SUCCESS' : 'ERROR', reason: `tool ${tool}`,
    metadata: {
      ...prov(session, wo), tool_id: tool, status: ok ? 'ok' : 'error', arguments: { path: 'HOT/kernel' },
      result: ok ? { files: ['a.py', 'b.py'] } : null, tool_error: ok ? '' : 'permission denied',
      args_summary: 'path=HOT/kernel', result_summary: ok ? '2 files' : '',
    },
    at,
  }),
  woCompleted: (session: string, wo: string, at: number): PlaneEntry => ({
    ledger: 'ho1m', event_type: 'WO_COMPLETED', submission_id: wo, decision: 'COMPLETED', reason: 'done',
    metadata: { ...prov(session, wo), cost: { input_tokens: 0, output_tokens: 0 } }, at,
  }),
  woFailed: (session: string, wo: string, code: string, message: string, at: number): PlaneEntry => ({
    ledger: 'ho1m', event_type: 'WO_FAILED', submission_id: wo, decision: 'FAILED', reason: message,
    metadata: { ...prov(session, wo), error_code: code, error_message: message }, at,
  }),
  budgetWarning: (session: string, wo: string, remaining: number, at: number): PlaneEntry => ({
    ledger: 'ho1m', event_type: 'BUDGET_WARNING', submission_id: wo, decision: 'WARN', reason: `Budget low: ${remaining} remaining`,
    metadata: { ...prov(session, wo), remaining, message: `Budget low: ${remaining} remaining` }, at,
  }),
  exchange: (
    session: string,
    wo: string,
    t: { input: number; output: number; prompt?: string; response?: string },
    at: number,
  ): PlaneEntry => ({
    ledger: 'governance', event_type: 'EXCHANGE', submission_id: 'PRC-SYNTHESIZE-001', decision: 'SUCCESS', reason: 'Exchange completed',
    metadata: {
      session_id: session, work_order_id: wo, prompt: t.prompt ?? 'You are the admin agent. Answer the user.',
      response: t.response ?? 'Here is the answer.', input_tokens: t.input, output_tokens: t.output,
      model_id: 'claude-sonnet-4-5', finish_reason: 'end_turn', latency_ms: 900,
    },
    at,
  }),
  budgetDebit: (session: string, wo: string, input: number, output: number, at: number): PlaneEntry => ({
    ledger: 'governance', event_type: 'BUDGET_DEBIT', submission_id: `${session}/${wo}/admin-001.ho1`, decision: 'DEBITED', reason: 'debit',
    metadata: { scope_session_id: session, scope_work_order_id: wo, input_tokens: input, output_tokens: output }, at,
  }),
};
