// reconstruct_session: a session's chronological timeline merged from all its ledgers (and its
// sub-agents'), one page at a time; compact rows show the shape of the session, full rows what
// each raw line said.

import { z } from 'zod';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { http } from './http.js';
import { lineKey, loadLines } from '../../analysis/evidence-lines.js';
import { needsLine, rowShape, timelineRow, type RowOptions } from './row.js';
import { VIEW_KINDS, viewKindOf, type ViewKind } from './view-kind.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import { profileOf } from '../../formats/registry.js';
import type { Store } from '../../store/store.js';

/**
 * One page of the events whose view kind is in `kinds`, and how many match in all. The store pages
 * in timeline order only, so the session's timeline is read whole and filtered here.
 */
async function filteredPage(
  store: Store,
  id: string,
  profile: FormatProfile,
  kinds: ReadonlySet<ViewKind>,
  o: { offset: number; limit: number; descendants: boolean },
): Promise<{ total: number; matching: number; events: StoredEvent[] }> {
  const events: StoredEvent[] = [];
  let matching = 0;
  const take = (chunk: StoredEvent[]): void => {
    for (const e of chunk) {
      if (!kinds.has(viewKindOf(profile, e))) continue;
      if (matching >= o.offset && events.length < o.limit) events.push(e);
      matching++;
    }
  };
  // A timeline page at an offset costs the merge up to that offset, so reading in fixed chunks is
  // quadratic (a 100k-event session took ~80 s in 2,000-event chunks). The whole timeline in one
  // read is the engines' bulk path (one scan per session; event rows carry no payloads).
  const all = await store.sessionTimeline(id, { offset: 0, limit: Number.MAX_SAFE_INTEGER, descendants: o.descendants });
  take(all.events);
  return { total: all.total, matching, events };
}
import { resolveSession } from '../session-ref.js';

const input = z
  .object({
    session_id: z.string().min(1).describe('The session: its id or a unique prefix of it (see list_sessions).'),
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
    kinds: z
      .array(z.enum(VIEW_KINDS))
      .min(1, `kinds must name at least one of ${VIEW_KINDS.join(', ')}`)
      .optional()
      .describe('Only these kinds (rows give view_kind); count then counts matches.'),
    redact: redactArg,
  })
  .strict();

export const reconstructSession = defineTool({
  name: 'reconstruct_session',
  storeDetermined: true,
  mcpSets: ['core', 'analyst'],
  examples, cli, http,
  title: 'Reconstruct a session timeline',
  description:
    "Return a session's events in chronological order, merged from all its ledgers (Control Plane: ho2m, ho1m, governance; ties ordered ho2m > ho1m > governance, then entry id) and, by default, its sub-agents' ledgers. Each row gives timestamp, source ledger, event_type, kind, actor, turn_number, wo_id, session_id, file and line_number of its evidence, a one-line summary and a payload. verbosity compact (default) carries no prompt or response text, only sizes and facts (tokens, decisions, tool names, error codes); full adds each event's content from its raw line (prompts only with include_prompts). Token counts in payloads belong to usage_key: rows sharing one (a Claude Code response split over lines) are one LLM call. event_count is the total; page with limit/offset (next_offset). A page over max_bytes is cut and marked truncated: a single row larger than max_bytes gives zero rows, so raise max_bytes or use compact.",
  input,
  output: z.object({
    status: z.literal('ok'),
    session_id: z.string(),
    event_count: z.number().int(),
    ...pageShape,
    kinds: z.array(z.enum(VIEW_KINDS)).optional(),
    timeline: z.array(rowShape),
  }),
  async handler(args, { store }) {
    const paging = { offset: args.offset, limit: args.limit, descendants: args.include_subagents };
    // A full id or a unique prefix (session-ref.ts), as every session tool takes. The page is read
    // at the same time under the id as given (on a server, its statements need not wait for the
    // session's): a prefix reads it again under the full id.
    const [session, early] = await Promise.all([
      resolveSession(store, args.session_id),
      args.kinds ? undefined : store.sessionTimeline(args.session_id, paging),
    ]);
    const profile = await profileOf(session.format);
    const { total, matching, events } = args.kinds
      ? await filteredPage(store, session.id, profile, new Set(args.kinds), paging)
      : { ...(early && session.id === args.session_id ? early : await store.sessionTimeline(session.id, paging)), matching: undefined };
    const opts: RowOptions = {
      full: args.verbosity === 'full',
      includePrompts: args.include_prompts,
      includeToolPayloads: args.include_tool_payloads,
      redact: args.redact,
    };
    const lines = await loadLines(
      store,
      events.filter((e) => needsLine(profile, e, opts)),
    );
    const timeline = events.map((e) => timelineRow(profile, e, lines.get(lineKey(e)), opts));
    const p = page(matching ?? total, args.limit, args.offset, timeline.length);
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
      ...(args.kinds && { kinds: args.kinds }),
      timeline,
    };
    return fitMaxBytes(body, 'timeline', args.max_bytes);
  },
});
