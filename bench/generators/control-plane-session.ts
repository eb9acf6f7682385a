// Scripts one generated Control Plane session as a time-ordered stream of ledger entries: turns
// of classify → synthesize work orders through the gateway and budgeter, tool calls, retries,
// quality gates, and an ending (SESSION_END, a degradation, or a process that just stopped).

import { createHash } from 'node:crypto';
import { MODEL_ID, SessionEntries, costMeta, zeroCost, type Cost } from './control-plane-entries.js';
import { PyFloat } from './control-plane-pyjson.js';
import type { IdSource, Random } from './control-plane-random.js';
import { USER_MESSAGES, classifyResponse, prompt, response, toolCall } from './control-plane-text.js';
import type { EntryBody } from './control-plane-writer.js';

export type LedgerName = 'ho2m' | 'ho1m' | 'governance';

export interface Step {
  ledger: LedgerName;
  micros: number;
  id: string;
  body: EntryBody;
}

export type Ending = 'completed' | 'errored' | 'active' | 'cut';

export interface SessionPlan {
  sessionId: string;
  startMicros: number;
  turns: number;
  ending: Ending;
}

const SECOND = 1_000_000;

/** The entries of one session, in time order (each turn is built, then yielded). */
export function* sessionSteps(rng: Random, ids: IdSource, plan: SessionPlan): Generator<Step> {
  const e = new SessionEntries(plan.sessionId);
  let t = plan.startMicros;
  let woCounter = 0;
  const total = zeroCost();
  let steps: Step[] = [];
  const at = (ledger: LedgerName, body: EntryBody, gapMin = 200, gapMax = 1500): Step => {
    t += rng.int(gapMin, gapMax);
    const step = { ledger, micros: t, id: ids.next(), body };
    steps.push(step);
    return step;
  };
  const wait = (minSec: number, maxSec: number) => (t += rng.int(minSec * SECOND, maxSec * SECOND));
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');

  /** One work order on HO1: budget, 1–3 LLM rounds with tool calls between, then done or failed. */
  const runWorkOrder = (wo: string, type: string, userMessage: string, rounds: number): Cost => {
    const cost = zeroCost();
    const contract = `PRC-${type.toUpperCase()}-001`;
    const promptId = `PRM-${type.toUpperCase()}-001`;
    let remaining = type === 'classify' ? 2000 : 8000;
    at('governance', e.budgetAllocate(wo, remaining));
    const started = t;
    for (let r = 0; r < rounds; r++) {
      const dispatch = at('governance', e.dispatch(contract));
      const text = prompt(rng, type, userMessage, type === 'classify' ? rng.int(1200, 1800) : rng.int(2500, 5000));
      const contextHash = hash(text);
      const failures = rng.chance(0.06) ? rng.int(1, 3) : 0;
      for (let a = 1; a <= Math.min(failures, 3); a++) {
        wait(1, 30);
        const code = rng.pick(['TIMEOUT', 'SERVER_ERROR', 'RATE_LIMITED']);
        const message = code === 'SERVER_ERROR' ? "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}" : `${code.toLowerCase()} from provider`;
        at('governance', e.exchange({ wo, contract, prompt: text, response: '', dispatchId: `LED-${dispatch.id}`, latencyMs: rng.float(500, 30000), contextHash, error: { code, message, attempt: a, willRetry: a < 3 } }));
      }
      if (failures === 3) {
        // Retries exhausted: HO1 logs a call with no tokens and fails the work order.
        at('ho1m', e.ho1('LLM_CALL', wo, promptId, { input_tokens: 0, output_tokens: 0, model_id: MODEL_ID, latency_ms: new PyFloat(rng.float(1000, 3000)) }));
        cost.llm_calls++;
        at('ho1m', e.ho1('WO_FAILED', wo, promptId, { error_code: 'TIMEOUT', error_message: 'Provider did not answer after 3 attempts' }));
        return cost;
      }
      const latency = rng.float(700, 3500);
      wait(0, 3);
      const input = type === 'classify' ? rng.int(200, 260) : rng.int(700, 1700);
      const output = type === 'classify' ? rng.int(50, 70) : rng.int(40, 220);
      const answer = type === 'classify' ? classifyResponse(rng) : response(rng, rng.chance(0.02) ? 16384 : rng.int(150, 2500));
      at('governance', e.exchange({ wo, contract, prompt: text, response: answer, dispatchId: `LED-${dispatch.id}`, latencyMs: latency, contextHash, input, output }));
      remaining -= input + output;
      at('governance', e.budgetDebit(wo, input, output, remaining));
      at('ho1m', e.ho1('LLM_CALL', wo, promptId, { input_tokens: input, output_tokens: output, model_id: MODEL_ID, latency_ms: new PyFloat(latency) }));
      cost.input_tokens += input;
      cost.output_tokens += output;
      cost.llm_calls++;
      if (rng.chance(0.03)) {
        at('ho1m', e.ho1('BUDGET_WARNING', wo, promptId, { remaining, followup_min: 500, message: `Budget low: ${remaining} < 500, continuing in warn mode` }));
      }
      if (r < rounds - 1) {
        const call = toolCall(rng, rng.chance(0.1));
        const args = JSON.stringify(call.args);
        const result = JSON.stringify(call.result);
        at('ho1m', e.ho1('TOOL_CALL', wo, promptId, {
          tool_id: call.toolId, status: call.error ? 'error' : 'ok', arguments: call.args, result: call.result,
          args_bytes: args.length, result_bytes: result.length, tool_error: call.error, args_summary: args.slice(0, 200), result_summary: result.slice(0, 200),
        }), 50_000, 400_000);
        cost.tool_calls++;
      }
    }
    cost.elapsed_ms = Math.round((t - started) / 1000);
    if (type === 'synthesize' && rng.chance(0.02)) {
      at('ho1m', e.ho1('WO_FAILED', wo, promptId, { error_code: 'budget_exhausted', error_message: `Only ${Math.max(remaining, 0)} tokens remain after tool calls` }));
    } else {
      at('ho1m', e.ho1('WO_COMPLETED', wo, promptId, { cost: costMeta(cost) }));
    }
    return cost;
  };

  const addCost = (c: Cost) => {
    total.input_tokens += c.input_tokens;
    total.output_tokens += c.output_tokens;
    total.llm_calls += c.llm_calls;
    total.tool_calls += c.tool_calls;
    total.elapsed_ms += c.elapsed_ms;
  };

  const planWorkOrder = (type: string): string => {
    const wo = `WO-${plan.sessionId}-${String(++woCounter).padStart(3, '0')}`;
    at('ho2m', e.ho2('WO_PLANNED', 'WO_PLANNED', `WO_PLANNED for ${wo}`, { wo_type: type, tier_target: 'HO1' }, wo));
    at('ho2m', e.ho2('WO_DISPATCHED', 'WO_DISPATCHED', `WO_DISPATCHED for ${wo}`, { wo_type: type, tier_target: 'HO1' }, wo));
    return wo;
  };

  at('ho2m', e.ho2('SESSION_START', 'STARTED', 'Session started'), 0, 0);
  yield* steps;
  for (let turn = 1; turn <= plan.turns; turn++) {
    steps = [];
    wait(turn === 1 ? 5 : 10, turn === 1 ? 40 : 150);
    const user = rng.pick(USER_MESSAGES);
    const wo1 = planWorkOrder('classify');
    addCost(runWorkOrder(wo1, 'classify', user, 1));
    if (turn === 1) {
      at('ho2m', e.ho2('INTENT_DECLARED', 'DECLARED', 'Intent declared: inspect the control plane', { intent_id: `INT-${plan.sessionId.slice(4)}-001`, scope: 'session', objective: 'inspect the control plane', parent_intent_id: null }));
    }
    at('ho2m', e.ho2('PROJECTION_SHADOW_COMPARE', 'SHADOW_COMPARE', 'Compared attention context with projected context', {
      mode: 'shadow', old_context_hash: hash(`${wo1}a`), new_context_hash: hash(`${wo1}a`), hash_changed: false,
      old_fragment_count: 4, new_fragment_count: 4, old_tokens_used: rng.int(1500, 2500), new_tokens_used: rng.int(1500, 2500),
    }));
    if (plan.ending === 'cut' && turn === plan.turns) {
      planWorkOrder('synthesize'); // the process died here: dispatched, never finished
      yield* steps;
      return;
    }
    const wo2 = planWorkOrder('synthesize');
    const cost = runWorkOrder(wo2, 'synthesize', user, rng.int(1, 3));
    addCost(cost);
    const fingerprint = { context_hash: hash(`${wo2}f`) };
    at('ho2m', e.ho2('WO_CHAIN_COMPLETE', 'CHAIN_DONE', `All 2 WOs completed for session ${plan.sessionId}`, {
      relational: { related_artifacts: [{ type: 'ledger_entry', id: wo1 }, { type: 'ledger_entry', id: wo2 }] },
      context_fingerprint: fingerprint, cost: costMeta(cost), wo_ids: [wo1, wo2],
    }));
    if (rng.chance(0.05)) {
      const reason = 'ungrounded_source_claim: source visibility asserted without current-turn evidence';
      at('ho2m', e.ho2('WO_QUALITY_GATE', 'REJECT', reason, { context_fingerprint: fingerprint, decision: 'reject', wo_id: wo2 }));
      at('ho2m', e.ho2('ESCALATION', 'ESCALATED', `Quality gate rejected after 2 retries: ${reason}`, { max_retries: 2, final_decision: 'reject', wo_id: wo2 }));
    } else {
      at('ho2m', e.ho2('WO_QUALITY_GATE', 'ACCEPT', 'output passes all quality checks', { context_fingerprint: fingerprint, decision: 'accept', wo_id: wo2 }));
    }
    const answer = response(rng, rng.chance(0.03) ? 16384 : rng.int(100, 3000));
    at('ho2m', e.ho2('TURN_RECORDED', 'RECORDED', `Turn ${turn} recorded`, { turn_number: turn, user_message: user, response: answer }));
    yield* steps;
  }
  steps = [];
  if (plan.ending === 'completed') {
    wait(5, 60);
    at('ho2m', e.ho2('SESSION_END', 'ENDED', 'Session ended', { turn_count: plan.turns, total_cost: costMeta(total) }));
  } else if (plan.ending === 'errored') {
    wait(5, 60);
    at('ho2m', e.ho2('DEGRADATION', 'DEGRADED', 'HO1 dispatch failed: list index out of range', { governance_violation: true, error: 'list index out of range' }));
    at('governance', e.governanceDegradation('IndexError', 'list index out of range'));
  }
  yield* steps;
}
