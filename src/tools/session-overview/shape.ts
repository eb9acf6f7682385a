// The session_overview result schema: the human summary first, diagnostics second (seed names,
// with generic counts beside them).

import { z } from 'zod';

const int = () => z.number().int();

const problemShape = z.object({
  type: z.string().describe('snake_case of the native type, or the error code where it says more (budget_exhausted), tool_error for a failed tool call, or the finding kind (orphan_tool_call, hash_mismatch).'),
  message: z.string().describe('What the log says went wrong (a failed call: its result text, start and end kept), bounded and redacted.'),
  timestamp: z.string().nullable(),
  source: z.string().nullable().describe('Ledger the evidence is in.'),
  file: z.string().nullable(),
  line_number: int().nullable(),
  session_id: z.string(),
  tool_name: z.string().nullable().describe('The tool a failed call or tool error is about.'),
  tool_call_id: z.string().nullable(),
});

const totalsShape = {
  input_total: int(),
  output_total: int(),
  cache_write_total: int(),
  cache_read_total: int(),
  grand_total: int(),
};

export const summaryShape = z.object({
  session_id: z.string(),
  format: z.string(),
  kind: z.string(),
  parent_id: z.string().nullable(),
  agent_name: z.string().nullable(),
  project: z.string().nullable(),
  title: z.string().nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  duration: z.string().nullable().describe('Human duration ("12 minutes"); null when the end is unknown.'),
  duration_seconds: z.number().nullable(),
  turn_count: int(),
  status: z.string(),
  about: z.string().describe('One plain paragraph: what the user started with, what mostly happened, what went wrong, how it ended.'),
  top_user_messages: z.array(z.string()),
  errors: z.array(problemShape),
  error_count: int(),
  warnings: z.array(problemShape),
  warning_count: int(),
});

export const diagnosticsShape = z.object({
  tokens: z.object({
    ...totalsShape,
    own: z.object(totalsShape),
    by_child: z.array(z.object({ session_id: z.string(), agent_name: z.string().nullable(), kind: z.string(), ...totalsShape })),
  }),
  llm_calls: int(),
  llm_calls_own: int(),
  models: z.array(z.string()),
  cost: z
    .object({
      cost_usd: z.number().nullable(),
      partial: z.boolean(),
      unpriced_models: z.array(z.string()),
      calls: int(),
      prices_as_of: z.string(),
    })
    .describe("What the session's LLM calls cost (sub-agents folded in), priced as usage_report prices them; cost_usd null when no call has a price, partial when some have none."),
  work_orders: z.object({ total: int(), by_type: z.record(int()), by_state: z.record(int()) }),
  tools: z.object({
    total_calls: int(),
    succeeded: int(),
    failed: int(),
    by_tool: z.record(z.object({ called: int(), succeeded: int(), failed: int() })),
    counted_from: z.array(z.string()),
  }),
  quality_gates: z.object({ passed: int(), rejected: int() }),
  ledger_events: z.record(int()),
  compactions: int(),
  sub_agent_count: int(),
  sub_agents: z.array(
    z.object({
      session_id: z.string(),
      parent_id: z.string().nullable(),
      kind: z.string(),
      agent_name: z.string().nullable(),
      task: z.string().nullable(),
      status: z.string(),
      turn_count: int(),
      event_count: int(),
      errors: int(),
      warnings: int(),
      tokens_total: int(),
    }),
  ),
  ingest: z.object({ bad_lines: int(), rewrites: int() }),
});

export const overviewShape = z.object({
  status: z.literal('ok'),
  summary: summaryShape,
  diagnostics: diagnosticsShape,
  truncated: z.boolean().optional(),
});
