// query_ledger: the last N entries of a ledger, as the admin seed's tool returns them (reason cut
// at 200 characters, metadata key names only). For full metadata and paging, query_ledger_full.

import { z } from 'zod';
import { redactText } from '../../core/redact.js';
import { fitMaxBytes, maxBytesArg, page, redactArg } from '../envelope.js';
import { ledgerAddressArgs, resolveLedger } from '../ledger-address.js';
import { countEntries, eventTypesHint, eventTypesShape, maxEntriesArgs, pickMaxEntries, readEntries, type EntryFields } from '../ledger-entry.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';

const REASON_CHARS = 200;

const input = z
  .object({
    ledger: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Which ledger to query: governance (system events, default), ho2m (session/turns), ho1m (execution traces). With a session_id of another format: one of its own ledgers (get_session lists them; default its main one).',
      ),
    event_type: z.string().min(1).optional().describe('Only entries of this event type (e.g. TURN_RECORDED).'),
    ...maxEntriesArgs,
    ...ledgerAddressArgs,
    max_bytes: maxBytesArg(50_000),
    redact: redactArg,
  })
  .strict();

const entryShape = z.object({
  id: z.string().nullable(),
  event_type: z.string(),
  submission_id: z.string().nullable(),
  decision: z.string().nullable(),
  reason: z.string().nullable(),
  timestamp: z.string().nullable(),
  timestamp_utc: z.string().nullable(),
  session_id: z.string().nullable(),
  metadata_keys: z.array(z.string()),
  file: z.string(),
  line_number: z.number().int(),
});

/** Python's `s[:n]`: n code points, never half a surrogate pair. */
export function cutCodePoints(s: string, n: number): string {
  let i = 0;
  for (let taken = 0; i < s.length && taken < n; taken++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, i);
}

function view(e: EntryFields, redact: boolean): z.infer<typeof entryShape> {
  // Redact before cutting: a secret cut at 200 characters could slip under the patterns.
  const reason = e.reason === null ? null : cutCodePoints(redact ? redactText(e.reason) : e.reason, REASON_CHARS);
  const r = (s: string | null) => (s !== null && redact ? redactText(s) : s);
  return {
    id: e.id,
    event_type: e.event_type,
    submission_id: r(e.submission_id),
    decision: r(e.decision),
    reason,
    timestamp: e.timestamp,
    timestamp_utc: e.timestamp_utc,
    session_id: e.session_id,
    metadata_keys: Object.keys(e.metadata ?? {}).sort(),
    file: e.file,
    line_number: e.line_number,
  };
}

export const queryLedger = defineTool({
  name: 'query_ledger',
  storeDetermined: true,
  mcpSets: ['ledger'],
  examples,
  title: 'Query a ledger (last entries)',
  description:
    "The last max_entries entries (default 10) of one ledger, oldest first, optionally of one event_type: id, event_type, submission_id, decision, reason (first 200 characters), timestamp as written, metadata_keys (sorted key names), file and line_number. count is how many are returned, total how many match. Control Plane ledgers: governance (default), ho2m (sessions, turns), ho1m (LLM and tool calls), across rotated segments; with session_id only that session's entries. Use query_ledger_full for full metadata and paging from the start.",
  input,
  output: z.object({
    status: z.literal('ok'),
    source: z.string(),
    root: z.string().nullable(),
    session_id: z.string().nullable(),
    event_type: z.string().nullable(),
    count: z.number().int(),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    returned: z.number().int(),
    has_more: z.boolean(),
    next_offset: z.number().int().nullable(),
    truncated: z.boolean().optional(),
    event_types: eventTypesShape.optional(),
    entries: z.array(entryShape),
  }),
  async handler(args, { store }) {
    const limit = pickMaxEntries(args);
    const sel = await resolveLedger(store, args, { defaultLedger: 'governance' });
    const total = await countEntries(store, sel, args.event_type);
    const offset = Math.max(0, total - limit);
    const { entries } = await readEntries(store, sel, { type: args.event_type, offset, limit });
    // The seed's count is the number returned; the page fields are measured from the ledger's start.
    return fitMaxBytes(
      {
        source: sel.ledger,
        root: sel.root,
        session_id: sel.session?.id ?? null,
        event_type: args.event_type ?? null,
        ...page(total, limit, offset, entries.length),
        ...(await eventTypesHint(store, sel, args.event_type, total)),
        entries: entries.map((e) => view(e, args.redact)),
      },
      'entries',
      args.max_bytes,
      ({ source, root, session_id, event_type, count, ...rest }) => ({ source, root, session_id, event_type, count: rest.returned, total: count, ...rest }),
    );
  },
});
