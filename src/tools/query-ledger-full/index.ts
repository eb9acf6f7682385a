// query_ledger_full: ledger entries with their full metadata, paged from the start of the ledger
// (the forensic seed's tool). Index-backed: a deep page costs one count per file and one read.

import { z } from 'zod';
import { redactText, redactValue } from '../../core/redact.js';
import { fitMaxBytes, maxBytesArg, offsetArg, page, pageShape, redactArg } from '../envelope.js';
import { ledgerAddressArgs } from '../ledger-address.js';
import { resolveAndReadEntryLines } from '../ledger-read-ahead.js';
import { defineTool } from '../tool.js';
import { examples } from './examples.js';
import { cli } from './cli.js';
import { entriesOf, eventTypesHint, eventTypesShape, maxEntriesArgs, pickMaxEntries, type EntryFields } from '../ledger-entry.js';

const input = z
  .object({
    ledger: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Control Plane: governance (default), ho2m or ho1m. With a session_id of another format: one of its own ledgers (get_session lists them; default its main one).",
      ),
    event_type: z.string().min(1).optional().describe('Only entries of this event type (e.g. EXCHANGE, TURN_RECORDED; for Claude Code the line type, for Amplifier the event name or role).'),
    ...maxEntriesArgs,
    offset: offsetArg.describe('How many matching entries to skip from the start of the ledger (use next_offset).'),
    ...ledgerAddressArgs,
    max_bytes: maxBytesArg(50_000),
    redact: redactArg,
  })
  .strict();

export const fullEntryShape = z.object({
  id: z.string().nullable(),
  event_type: z.string(),
  submission_id: z.string().nullable(),
  decision: z.string().nullable(),
  reason: z.string().nullable(),
  timestamp: z.string().nullable(),
  timestamp_utc: z.string().nullable(),
  session_id: z.string().nullable(),
  metadata: z.record(z.unknown()).nullable(),
  file: z.string(),
  line_number: z.number().int(),
});

function redacted(e: EntryFields): EntryFields {
  const r = (s: string | null) => (s === null ? null : redactText(s));
  return { ...e, submission_id: r(e.submission_id), decision: r(e.decision), reason: r(e.reason), metadata: e.metadata && redactValue(e.metadata) };
}

export const queryLedgerFull = defineTool({
  name: 'query_ledger_full',
  storeDetermined: true,
  mcpSets: ['ledger'],
  examples, cli,
  title: 'Query ledger entries (full)',
  description:
    "Page through one ledger's entries from the start, with each entry's FULL metadata dict and full reason (query_ledger gives only the last N with metadata key names). Filter by event_type; count is every match, next_offset the next page. Control Plane ledgers: governance (default), ho2m, ho1m, across rotated segments; with session_id only that session's entries. Claude Code / Amplifier session ledgers map to the same shape (metadata = the whole line). Every entry names its file and line_number; secrets are redacted unless redact is false. An event_type that matches nothing answers count 0 with the ledger's event_types.",
  input,
  output: z.object({
    status: z.literal('ok'),
    source: z.string(),
    root: z.string().nullable(),
    session_id: z.string().nullable(),
    event_type: z.string().nullable(),
    ...pageShape,
    event_types: eventTypesShape.optional(),
    entries: z.array(fullEntryShape),
  }),
  async handler(args, { store }) {
    const limit = pickMaxEntries(args);
    // The page is read beside the ledger's resolution where an earlier call resolved the same address.
    const { sel, total, entries: lines } = await resolveAndReadEntryLines(store, args, { defaultLedger: 'governance' }, { type: args.event_type, offset: args.offset, limit });
    const entries = entriesOf(sel, lines);
    const shown = args.redact ? entries.map(redacted) : entries;
    return fitMaxBytes(
      {
        source: sel.ledger,
        root: sel.root,
        session_id: sel.session?.id ?? null,
        event_type: args.event_type ?? null,
        ...page(total, limit, args.offset, shown.length),
        ...(await eventTypesHint(store, sel, args.event_type, total)),
        entries: shown,
      },
      'entries',
      args.max_bytes,
    );
  },
});
