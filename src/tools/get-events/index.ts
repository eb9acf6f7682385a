// get_events: a session's events, safe to read whatever their size — place, time, type and an
// error flag by default, and only the fields asked for (dotted paths into each raw line), each
// bounded with a visible cut marker. Never a whole payload.

import { z } from 'zod';
import { keyToIso } from '../../core/time.js';
import type { StoredEvent } from '../../core/events.js';
import { fitMaxBytes, limitArg, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { lineKey, loadLines } from '../../analysis/evidence-lines.js';
import { isErrorEvent, ownEvents } from '../../analysis/session-events.js';
import { resolveSession } from '../session-ref.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { http } from './http.js';
import { EVENT_CHARS, project, VALUE_CHARS } from './project.js';

const MAX_FIELDS = 50;

const input = z
  .object({
    session_id: z.string().min(1, 'session_id must not be empty').describe('Session id, or a unique prefix of one (at least 4 characters).'),
    event_types: z
      .array(z.string().min(1))
      .max(100)
      .optional()
      .describe("Only events of these native types ('assistant', 'tool:post', 'TURN_RECORDED') or kinds ('tool_call', 'error', 'user_message', …)."),
    fields: z
      .array(z.string().min(1).max(200))
      .max(MAX_FIELDS)
      .optional()
      .describe(
        `Dotted paths into each event's raw JSON line to return, e.g. message.usage.input_tokens (Claude Code), data.usage.input_tokens (Amplifier events), metadata.input_tokens (Control Plane); numeric segments index arrays (message.content.0.text). Each value is capped at ${VALUE_CHARS} characters and an event's fields at ${EVENT_CHARS} together, cut with a visible "…[cut N chars]" marker (a large object comes back as its cut JSON text). Paths a line does not have are listed in missing_fields, not an error.`,
      ),
    errors_only: z.boolean().default(false).describe('Only error events: error kinds, failed tool results, ERROR-level records, API errors.'),
    limit: limitArg(100, 2000),
    offset: offsetArg,
    max_bytes: maxBytesArg(50_000),
    redact: redactArg,
  })
  .strict();

const eventShape = z.object({
  index: z.number().int(),
  seq: z.number().int(),
  /** The seed's names: ts (= timestamp) and event (= type). */
  ts: z.string().nullable(),
  event: z.string(),
  timestamp: z.string().nullable(),
  type: z.string(),
  kind: z.string(),
  turn: z.number().int().nullable(),
  is_error: z.boolean(),
  ledger: z.string(),
  file: z.string(),
  line_number: z.number().int(),
  fields: z.record(z.unknown()).optional(),
  missing_fields: z.array(z.string()).optional(),
  fields_unavailable: z.string().optional(),
});

function matcher(types: readonly string[] | undefined, errorsOnly: boolean): ((e: StoredEvent) => boolean) | null {
  if (!types?.length && !errorsOnly) return null;
  const wanted = new Set(types ?? []);
  return (e) => (wanted.size === 0 || wanted.has(e.type) || wanted.has(e.kind)) && (!errorsOnly || isErrorEvent(e));
}

/**
 * One page of events with their positions in the session's timeline. Unfiltered, the store
 * pages; filtered, every event of the session is read and filtered in order (a session of
 * millions of events costs a full read per call).
 */
async function selectPage(
  store: Parameters<typeof ownEvents>[0],
  id: string,
  match: ((e: StoredEvent) => boolean) | null,
  offset: number,
  limit: number,
): Promise<{ total: number; rows: { index: number; event: StoredEvent }[] }> {
  if (!match) {
    const { total, events } = await store.sessionTimeline(id, { offset, limit, descendants: false });
    return { total, rows: events.map((event, i) => ({ index: offset + i, event })) };
  }
  const all = (await ownEvents(store, id)).map((event, index) => ({ index, event })).filter((r) => match(r.event));
  return { total: all.length, rows: all.slice(offset, offset + limit) };
}

export const getEvents = defineTool({
  name: 'get_events',
  storeDetermined: true,
  mcpSets: ['core', 'analyst'],
  examples, http,
  title: 'Get events (safe)',
  description:
    "Page through one session's own events (its sub-agents are sessions of their own) in timeline order, safely: each event gives index (position in the session's timeline, as reconstruct_session counts), ts and event (the seed's names; the same values as timestamp and type, the native type), kind, turn, is_error and its place (ledger, file, line_number) — never its payload. Ask for payload values with `fields` (dotted paths into the raw JSON line); each value is capped with a visible cut marker, so even a 100 KB line yields a few KB. Filter with event_types (types or kinds) and errors_only. total_count counts the matching events; page with limit/offset (next_offset). Accepts a unique id prefix.",
  input,
  output: z.object({
    status: z.literal('ok'),
    session_id: z.string(),
    total_count: z.number().int(),
    ...pageShape,
    missing_fields: z.array(z.string()).optional(),
    events: z.array(eventShape),
  }),
  async handler(args, { store }) {
    const session = await resolveSession(store, args.session_id);
    const match = matcher(args.event_types, args.errors_only);
    const { total, rows } = await selectPage(store, session.id, match, args.offset, args.limit);
    const fields = args.fields ? [...new Set(args.fields)] : [];
    const lines = fields.length > 0 ? await loadLines(store, rows.map((r) => r.event)) : null;
    const notFound = new Set(fields);
    const events = rows.map(({ index, event: e }) => {
      const ts = keyToIso(e.tsKey);
      const row: z.infer<typeof eventShape> = {
        index,
        seq: e.seq,
        ts,
        event: e.type,
        timestamp: ts,
        type: e.type,
        kind: e.kind,
        turn: e.turn,
        is_error: isErrorEvent(e),
        ledger: e.ledger,
        file: e.file,
        line_number: e.lineNumber,
      };
      if (!lines) return row;
      const p = project(lines.get(lineKey(e)), fields, args.redact);
      for (const f of Object.keys(p.fields ?? {})) notFound.delete(f);
      return { ...row, ...p };
    });
    const p = page(total, args.limit, args.offset, events.length);
    const body = {
      session_id: session.id,
      total_count: total,
      ...p,
      // Paths no event of the page has: most likely misspelt, or of another format.
      ...(fields.length > 0 && events.length > 0 && notFound.size > 0 ? { missing_fields: fields.filter((f) => notFound.has(f)) } : {}),
      events,
    };
    return fitMaxBytes(body, 'events', args.max_bytes);
  },
});
