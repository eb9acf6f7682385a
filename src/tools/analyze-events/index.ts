// analyze_events: one session's events digested four ways — summary, errors, timeline (per user
// turn) and usage — from the store alone, the same for every format.

import { z } from 'zod';
import { InvalidArguments } from '../../core/errors.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { resolveSession } from '../session-ref.js';
import { COST_MODES } from '../../usage/cost.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { eventsSummary } from '../../analysis/event-counts.js';
import { errorItem, problemEvents } from '../../analysis/problem-events.js';
import { ownEvents } from '../../analysis/session-events.js';
import { turnTimeline } from '../../analysis/turn-timeline.js';
import { profileOf } from '../../formats/registry.js';
import { usageReport } from './usage.js';
import { callRows } from './calls.js';

const ANALYSES = ['summary', 'errors', 'timeline', 'usage', 'calls'] as const;

const input = z
  .object({
    session_id: z.string().min(1, 'session_id must not be empty').describe('Session id, or a unique prefix of one (at least 4 characters).'),
    analysis_type: z.enum(ANALYSES).optional().describe('summary | errors | timeline | usage | calls (see the description).'),
    analysis: z.enum(ANALYSES).optional().describe('Same as analysis_type (either name is accepted).'),
    limit: limitArg(100, 2000),
    offset: offsetArg,
    max_bytes: maxBytesArg(50_000),
    cost_mode: z
      .enum(COST_MODES)
      .default('calculate')
      .describe('How usage and timeline price calls: calculate (shipped price table), display (costs recorded in the log only), auto (recorded, else calculated).'),
    redact: redactArg,
  })
  .strict();

export const analyzeEvents = defineTool({
  name: 'analyze_events',
  storeDetermined: true,
  mcpSets: ['analyst'],
  examples,
  title: 'Analyze session events',
  description:
    "Digest one session's own events (sub-agents are sessions of their own; usage also gives tokens_with_subagents). analysis_type summary: total_events, event_types and event_kinds counts, first_event, last_event, duration_ms, error and warning counts. errors: error and warning events in order, each with ts, event type, level, message (≤500 chars), code, and its evidence (ledger, file, line_number); paged. timeline: one row per user turn (Control Plane: per TURN_RECORDED; Claude Code and Amplifier: per user prompt) with turn_num, user_ts, assistant_ts (first) and assistant_last_ts, tool_calls, llm_calls, tokens (each LLM call once) and cost_usd, plus events before the first turn or after the last recorded one; paged. usage: llm_requests (distinct calls), tokens by kind (equal to the session's own totals), tool calls by name, models and cost {cost_usd, partial, unpriced_models, uncosted_calls, mode, prices_as_of} priced like usage_report (an unpriced model is listed, never $0; sub-agents are priced in their own sessions). calls: one row per LLM call (the same calls usage counts) with call_num, ts, model, tokens, cost_usd (null: unpriced) and latency_ms (logged by the agent, else the gap before the response line; latency_source says which); paged. Accepts a unique id prefix.",
  input,
  output: z
    .object({ status: z.literal('ok'), session_id: z.string(), analysis_type: z.enum(ANALYSES), ...pageShape })
    .partial({ count: true, limit: true, offset: true, returned: true, has_more: true, next_offset: true })
    .passthrough(),
  async handler(args, { store }) {
    if (args.analysis_type && args.analysis && args.analysis_type !== args.analysis) {
      throw InvalidArguments(`analysis_type "${args.analysis_type}" and analysis "${args.analysis}" disagree; pass one of them.`);
    }
    const analysis = args.analysis_type ?? args.analysis;
    if (!analysis) throw InvalidArguments(`analysis_type is required: one of ${ANALYSES.join(', ')}.`);
    const session = await resolveSession(store, args.session_id);
    const events = await ownEvents(store, session.id);
    const profile = await profileOf(session.format);
    const head = { session_id: session.id, analysis_type: analysis };
    switch (analysis) {
      case 'summary':
        return { ...head, ...eventsSummary(events) };
      case 'usage':
        return { ...head, ...usageReport(session, profile, events, args.cost_mode) };
      case 'errors': {
        const problems = problemEvents(events);
        const items = problems.slice(args.offset, args.offset + args.limit).map((p) => errorItem(p, args.redact));
        const body = {
          ...head,
          error_count: problems.filter((p) => p.level === 'error').length,
          warning_count: problems.filter((p) => p.level === 'warning').length,
          ...page(problems.length, args.limit, args.offset, items.length),
          errors: items,
        };
        return fitMaxBytes(body, 'errors', args.max_bytes);
      }
      case 'calls': {
        const rows = callRows(profile, events, args.cost_mode);
        const calls = rows.slice(args.offset, args.offset + args.limit);
        const body = { ...head, call_count: rows.length, ...page(rows.length, args.limit, args.offset, calls.length), calls };
        return fitMaxBytes(body, 'calls', args.max_bytes);
      }
      case 'timeline': {
        const t = turnTimeline(session, profile, events, args.cost_mode);
        const turns = t.turns.slice(args.offset, args.offset + args.limit);
        const body = {
          ...head,
          turn_count: t.turns.length,
          before_first_turn: t.before_first_turn,
          after_last_turn: t.after_last_turn,
          ...page(t.turns.length, args.limit, args.offset, turns.length),
          turns,
        };
        return fitMaxBytes(body, 'turns', args.max_bytes);
      }
    }
  },
});
