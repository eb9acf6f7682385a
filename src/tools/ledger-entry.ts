// A ledger entry as the query tools show it (the seed's LedgerEntry fields), read from its exact
// evidence line. Claude Code and Amplifier lines are mapped to the same shape so one tool can
// query any ledger. Shared by query_ledger and query_ledger_full.

import { z } from 'zod';
import { InvalidArguments } from '../core/errors.js';
import { keyToIso } from '../core/time.js';
import type { LedgerEntryLine, LedgerEntryQuery, LedgerEntryRow, Store } from '../store/store.js';
import type { LedgerSelection } from './ledger-address.js';
import { boundDepth } from '../core/json-depth.js';

export const MAX_ENTRIES = 500;

const countArg = (name: string) =>
  z
    .number({ invalid_type_error: `${name} must be a whole number from 1 to ${MAX_ENTRIES}` })
    .int(`${name} must be a whole number from 1 to ${MAX_ENTRIES}`)
    .min(1, `${name} must be from 1 to ${MAX_ENTRIES}`)
    .max(MAX_ENTRIES, `${name} must be from 1 to ${MAX_ENTRIES}`)
    .optional();

/** `max_entries` (the seed's name) and `limit` (the generic one) mean the same; spread into an input. */
export const maxEntriesArgs = {
  max_entries: countArg('max_entries').describe(`How many entries to return (1–${MAX_ENTRIES}, default 10).`),
  limit: countArg('limit').describe('Same as max_entries.'),
};

export function pickMaxEntries(args: { max_entries?: number | undefined; limit?: number | undefined }, fallback = 10): number {
  if (args.max_entries !== undefined && args.limit !== undefined && args.max_entries !== args.limit) {
    throw InvalidArguments(`max_entries (${args.max_entries}) and limit (${args.limit}) are the same setting; pass one of them.`);
  }
  return args.max_entries ?? args.limit ?? fallback;
}

export const eventTypesShape = z.array(z.object({ type: z.string(), count: z.number().int() }));

/** One entry, before the tool decides how much of it to show. */
export interface EntryFields {
  id: string | null;
  event_type: string;
  submission_id: string | null;
  decision: string | null;
  reason: string | null;
  /** The entry's own timestamp string, as written. */
  timestamp: string | null;
  /** The same instant normalised (UTC, milliseconds). */
  timestamp_utc: string | null;
  /** The session the entry belongs to (null when it names none). */
  session_id: string | null;
  metadata: Record<string, unknown> | null;
  file: string;
  line_number: number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

function parse(raw: Buffer | undefined): Json | null {
  if (!raw) return null;
  try {
    return obj(boundDepth(JSON.parse(raw.toString('utf8'))));
  } catch {
    return null;
  }
}

/** The format's fields of the line (its profile's ledgerEntry), then where and when the entry is. */
function fields(sel: LedgerSelection, row: LedgerEntryRow, value: Json | null): EntryFields {
  const own = sel.profile.ledgerEntry(value, row.type);
  return {
    id: own.id,
    event_type: own.event_type,
    submission_id: own.submission_id,
    decision: own.decision,
    reason: own.reason,
    timestamp: own.timestamp,
    timestamp_utc: keyToIso(row.tsKey),
    session_id: row.sessionId,
    metadata: own.metadata,
    file: row.file,
    line_number: row.lineNumber,
  };
}

/** Which entries of the selected ledger a read asks for: its files, its session, its type and page. */
export function entryQuery(
  sel: Pick<LedgerSelection, 'fileIds' | 'entrySessionId'>,
  query: { type?: string | undefined; offset: number; limit: number },
): LedgerEntryQuery {
  return {
    fileIds: sel.fileIds,
    ...(query.type !== undefined && { type: query.type }),
    ...(sel.entrySessionId !== null && { sessionId: sel.entrySessionId }),
    offset: query.offset,
    limit: query.limit,
  };
}

/** The entries a query asks for with their evidence lines, and `total` matching. */
export async function readEntryLines(store: Store, q: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryLine[] }> {
  // The entries with their lines in one read (on a server, one round trip instead of two).
  if (store.ledgerEntryLines && q.limit > 0) return store.ledgerEntryLines(q);
  const { total, entries: rows } = await store.ledgerEntries(q);
  if (rows.length === 0) return { total, entries: [] };
  const raws = await store.evidenceLines(rows.map((r) => ({ fileId: r.fileId, lineNumber: r.lineNumber })));
  const byAddress = new Map(raws.map((r) => [`${r.fileId}:${r.lineNumber}`, r.raw]));
  return { total, entries: rows.map((r) => ({ ...r, raw: byAddress.get(`${r.fileId}:${r.lineNumber}`) ?? null })) };
}

/** The entries of the selected ledger as the tools show them, from their rows and lines. */
export function entriesOf(sel: LedgerSelection, rows: readonly LedgerEntryLine[]): EntryFields[] {
  return rows.map((r) => fields(sel, r, parse(r.raw ?? undefined)));
}

/** Entries `offset…offset+limit` of the selected ledger (optionally of one type), in ledger order, with `total` matching. */
export async function readEntries(
  store: Store,
  sel: LedgerSelection,
  query: { type?: string | undefined; offset: number; limit: number },
): Promise<{ total: number; entries: EntryFields[] }> {
  const { total, entries } = await readEntryLines(store, entryQuery(sel, query));
  return { total, entries: entriesOf(sel, entries) };
}

/** How many entries match, without reading any (for "the last N"). */
export async function countEntries(store: Store, sel: LedgerSelection, type?: string): Promise<number> {
  return (await readEntries(store, sel, { type, offset: 0, limit: 0 })).total;
}

/** The ledger's event types, so that a caller whose filter matched nothing can correct it. */
export async function eventTypesHint(store: Store, sel: LedgerSelection, type: string | undefined, total: number) {
  return type !== undefined && total === 0 ? { event_types: await store.ledgerEventTypes(sel.fileIds) } : {};
}
