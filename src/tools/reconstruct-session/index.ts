// reconstruct_session: a session's chronological timeline merged from all its ledgers (and its
// sub-agents'), one page at a time; compact rows show the shape of the session, full rows what
// each raw line said.

import { z } from 'zod';
import { SessionNotFound } from '../../core/errors.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { defineTool } from '../tool.js';
import { lineKey, loadLines } from './evidence.js';
import { needsLine, rowShape, timelineRow, type RowOptions } from './row.js';

const input = z
  .object({
    session_id: z.string().min(1).describe('The session (see list_sessions).'),
    // Defaults sized for an agent's context: 25 compact rows fit the 16 KB cap (~550 bytes each on
    // real transcripts), so a default page is rarely cut; callers ask for more up to the caps.
    limit: limitArg(25, 2000),
    offset: offsetArg,
    max_bytes: maxBytesArg(16_000),
    verbosity: z
      .enum(['compact', 'full'])
      .default('compact')
      .describe('compact: type, actor, ids and small facts per event, no message text (sizes instead). full: also each event\'s content from its raw line.'),
    include_prompts: z
      .boolean()
      .default(false)
      .describe('full only: keep the text assembled and sent to the model (Control Plane prompt and prompts_used, Amplifier llm:request/provider:request). Responses are always kept.'),
    include_tool_payloads: z
      .boolean()
      .default(true)
      .describe('Keep tool arguments and results; false leaves their sizes in payload.omitted and names only the tool in summaries.'),
    include_subagents: z
      .boolean()
      .default(true)
      .describe("Merge the session's sub-agents and forks into the timeline (each row names its own session_id and source ledger)."),
    redact: redactArg,
  })
  .strict();

export const reconstructSession = defineTool({
  name: 'reconstruct_session',
  title: 'Reconstruct a session timeline',
  description:
    "Return a session's events in chronological order, merged from all its ledgers (Control Plane: ho2m, ho1m, governance; ties ordered ho2m > ho1m > governance, then entry id) and, by default, its sub-agents' ledgers. Each row gives timestamp, source ledger, event_type, kind, actor, turn_number, wo_id, session_id, file and line_number of its evidence, a one-line summary and a payload. verbosity compact (default) carries no prompt or response text, only sizes and facts (tokens, decisions, tool names, error codes); full adds each event's content from its raw line (prompts only with include_prompts). Token counts in payloads belong to usage_key: rows sharing one (a Claude Code response split over lines) are one LLM call. event_count is the total; page with limit/offset (next_offset). A page over max_bytes is cut and marked truncated: a single row larger than max_bytes gives zero rows, so raise max_bytes or use compact.",
  input,
  output: z.object({
    status: z.literal('ok'),
    session_id: z.string(),
    event_count: z.number().int(),
    ...pageShape,
    timeline: z.array(rowShape),
  }),
  async handler(args, { store }) {
    const session = await store.getSession(args.session_id);
    if (!session) throw SessionNotFound(args.session_id);
    const { total, events } = await store.sessionTimeline(session.id, {
      offset: args.offset,
      limit: args.limit,
      descendants: args.include_subagents,
    });
    const opts: RowOptions = {
      full: args.verbosity === 'full',
      includePrompts: args.include_prompts,
      includeToolPayloads: args.include_tool_payloads,
      redact: args.redact,
    };
    const lines = await loadLines(
      store,
      events.filter((e) => needsLine(session.format, e, opts)),
    );
    const timeline = events.map((e) => timelineRow(session.format, e, lines.get(lineKey(e)), opts));
    const p = page(total, args.limit, args.offset, timeline.length);
    // Seed fields first (session_id, event_count, returned), then the generic page fields.
    const body = {
      session_id: session.id,
      event_count: total,
      returned: p.returned,
      count: p.count,
      limit: p.limit,
      offset: p.offset,
      has_more: p.has_more,
      next_offset: p.next_offset,
      timeline,
    };
    return fitMaxBytes(body, 'timeline', args.max_bytes);
  },
});
