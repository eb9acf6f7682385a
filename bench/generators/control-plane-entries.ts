// Builds the LedgerEntry bodies each Control Plane writer produces (supervisor, executor,
// gateway, budgeter), with the metadata layout and key order seen in real ledgers.

import { PyFloat, type PyValue } from './control-plane-pyjson.js';
import type { EntryBody } from './control-plane-writer.js';

export const MODEL_ID = 'claude-sonnet-4-5-20250929';
const HO1_AGENT = 'admin-001.ho1';

type Meta = { [key: string]: PyValue | undefined };

export interface Cost {
  input_tokens: number;
  output_tokens: number;
  llm_calls: number;
  tool_calls: number;
  elapsed_ms: number;
}

export function zeroCost(): Cost {
  return { input_tokens: 0, output_tokens: 0, llm_calls: 0, tool_calls: 0, elapsed_ms: 0 };
}

export function costMeta(c: Cost): Meta {
  return {
    input_tokens: c.input_tokens,
    output_tokens: c.output_tokens,
    total_tokens: c.input_tokens + c.output_tokens,
    llm_calls: c.llm_calls,
    tool_calls: c.tool_calls,
    elapsed_ms: c.elapsed_ms,
  };
}

/** Entry bodies for one session. */
export class SessionEntries {
  constructor(readonly sessionId: string) {}

  private ho2Provenance(wo?: string): Meta {
    return { agent_id: 'ADMIN.ho2', agent_class: 'ADMIN', work_order_id: wo, session_id: this.sessionId };
  }

  /** A supervisor (ho2m) entry. */
  ho2(type: string, decision: string, reason: string, extra: Meta = {}, wo?: string): EntryBody {
    return {
      event_type: type,
      submission_id: wo ?? this.sessionId,
      decision,
      reason,
      prompts_used: [],
      metadata: { provenance: this.ho2Provenance(wo), ...extra },
    };
  }

  /** An executor (ho1m) entry for a work order. */
  ho1(type: string, wo: string, promptId: string, extra: Meta = {}): EntryBody {
    return {
      event_type: type,
      submission_id: wo,
      decision: type,
      reason: `${type} for ${wo}`,
      prompts_used: [promptId],
      metadata: {
        provenance: { agent_id: HO1_AGENT, agent_class: 'ADMIN', work_order_id: wo, session_id: this.sessionId },
        scope: { tier: 'ho1' },
        ...extra,
      },
    };
  }

  private scopeKey(wo: string): string {
    return `${this.sessionId}/${wo}/${HO1_AGENT}`;
  }

  budgetAllocate(wo: string, tokenLimit: number): EntryBody {
    return {
      event_type: 'BUDGET_ALLOCATE',
      submission_id: this.scopeKey(wo),
      decision: 'ALLOCATED',
      reason: `Budget allocated: ${tokenLimit} tokens`,
      prompts_used: [],
      metadata: {
        scope_key: this.scopeKey(wo),
        scope_session_id: this.sessionId,
        scope_work_order_id: wo,
        scope_agent_id: HO1_AGENT,
        token_limit: tokenLimit,
        turn_limit: 1,
        timeout_seconds: null,
      },
    };
  }

  budgetDebit(wo: string, input: number, output: number, remaining: number): EntryBody {
    return {
      event_type: 'BUDGET_DEBIT',
      submission_id: this.scopeKey(wo),
      decision: 'DEBITED',
      reason: `Debit: ${input + output} tokens (${input}in/${output}out)`,
      prompts_used: [],
      metadata: {
        scope_key: this.scopeKey(wo),
        parent_scope_key: null,
        scope_session_id: this.sessionId,
        scope_work_order_id: wo,
        scope_agent_id: HO1_AGENT,
        input_tokens: input,
        output_tokens: output,
        total_tokens: input + output,
        model_id: MODEL_ID,
        cost_incurred: new PyFloat(0),
        remaining,
      },
    };
  }

  dispatch(contract: string, agent = HO1_AGENT): EntryBody {
    return {
      event_type: 'DISPATCH',
      submission_id: contract,
      decision: 'DISPATCHED',
      reason: `Dispatching to anthropic/${MODEL_ID}`,
      prompts_used: [],
      metadata: { contract_id: contract, agent_id: agent, session_id: this.sessionId },
    };
  }

  exchange(x: {
    wo: string;
    contract: string;
    prompt: string;
    response: string;
    dispatchId: string;
    latencyMs: number;
    input?: number;
    output?: number;
    error?: { code: string; message: string; attempt: number; willRetry: boolean };
    contextHash: string;
  }): EntryBody {
    const base: Meta = {
      agent_id: HO1_AGENT,
      session_id: this.sessionId,
      work_order_id: x.wo,
      tier: 'ho1',
      contract_id: x.contract,
      framework_id: 'FMWK-000',
    };
    const meta: Meta = x.error
      ? {
          ...base,
          response: '',
          outcome: 'error',
          error_code: x.error.code,
          error_message: x.error.message,
          context_hash: x.contextHash,
          dispatch_entry_id: x.dispatchId,
          model_id: MODEL_ID,
          latency_ms: new PyFloat(x.latencyMs),
          retry_attempt: x.error.attempt,
          retryable: true,
          will_retry: x.error.willRetry,
          max_retries: 2,
        }
      : {
          ...base,
          prompt: x.prompt,
          response: x.response,
          outcome: 'success',
          input_tokens: x.input ?? 0,
          output_tokens: x.output ?? 0,
          context_hash: x.contextHash,
          dispatch_entry_id: x.dispatchId,
          model_id: MODEL_ID,
          finish_reason: 'stop',
          latency_ms: new PyFloat(x.latencyMs),
          tools_offered: 13,
          tool_use_in_response: false,
          retry_count: 0,
          attempts_total: 1,
        };
    return {
      event_type: 'EXCHANGE',
      submission_id: x.contract,
      decision: x.error ? 'ERROR' : 'SUCCESS',
      reason: x.error ? `Exchange failed: ${x.error.code}` : 'Exchange completed',
      prompts_used: [],
      metadata: meta,
    };
  }

  governanceDegradation(errorType: string, error: string): EntryBody {
    return {
      event_type: 'DEGRADATION',
      submission_id: 'PKG-SESSION-HOST-V2-001',
      decision: 'DEGRADED',
      reason: `HO2 failed: ${error}`,
      prompts_used: [],
      metadata: { session_id: this.sessionId, agent_id: 'admin-001', error_type: errorType },
    };
  }
}
