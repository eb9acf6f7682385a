// A session's events in timeline order from PostgreSQL, rebuilt into the same StoredEvent shape as
// the SQLite engine (compact columns expanded the same way), for summaries and timeline pages.

import type { EventKind } from '../../core/model.js';
import { partsToKey } from '../../core/time.js';
import { compareTimeline } from '../../core/timeline-order.js';
import type { StoredEvent } from '../../importers/importer.js';
import type { Queryable } from './query.js';

export const EVENT_COLUMNS = `e.seq, e.file_id, e.line_number, e.part, e.ts_ms, e.ts_ns, e.type, e.kind, e.actor,
  e.turn, e.wo_id, e.tool_call_id, e.message_id, e.request_id, e.agent_id, e.entry_id, e.tiebreak, e.ledger_rank,
  e.usage_key, e.model, e.tok_in, e.tok_out, e.tok_cw, e.tok_cr, e.tool_name, e.tool_status, e.summary, e.attrs`;

export interface EventRowDb {
  seq: number;
  file_id: number;
  line_number: number;
  part: number;
  ts_ms: number | null;
  ts_ns: number | null;
  type: string;
  kind: string;
  actor: string | null;
  turn: number | null;
  wo_id: string | null;
  tool_call_id: string | null;
  message_id: string | null;
  request_id: string | null;
  agent_id: string | null;
  entry_id: string | null;
  tiebreak: string | null;
  ledger_rank: number;
  usage_key: string | null;
  model: string | null;
  tok_in: number | null;
  tok_out: number | null;
  tok_cw: number | null;
  tok_cr: number | null;
  tool_name: string | null;
  tool_status: string | null;
  summary: string;
  attrs: string | null;
}

export interface FileName {
  ledger: string;
  rel_path: string;
}

/** One stored event from its row: the same expansion of compact columns as sqlite/session-events.ts. */
export function eventFromRow(r: EventRowDb, sessionId: string, file: FileName): StoredEvent {
  const ids: StoredEvent['ids'] = {};
  if (r.wo_id !== null) ids.workOrder = r.wo_id;
  if (r.tool_call_id !== null) ids.toolCall = r.tool_call_id;
  if (r.message_id !== null) ids.message = r.message_id;
  if (r.request_id !== null) ids.request = r.request_id;
  if (r.agent_id !== null) ids.agent = r.agent_id;
  if (r.entry_id !== null) ids.entry = r.entry_id;
  return {
    seq: r.seq,
    sessionId,
    fileId: r.file_id,
    ledger: file.ledger,
    file: file.rel_path,
    lineNumber: r.line_number,
    part: r.part,
    tsKey: r.ts_ms === null ? null : partsToKey(r.ts_ms, r.ts_ns ?? 0),
    type: r.type,
    kind: r.kind as EventKind,
    actor: r.actor,
    turn: r.turn,
    ids,
    tiebreak: r.tiebreak ?? ids.entry ?? '',
    ledgerRank: r.ledger_rank,
    usage:
      r.tok_in === null
        ? null
        : {
            key: r.usage_key ?? `${ids.message}:${ids.request}`,
            model: r.model,
            input: r.tok_in,
            output: r.tok_out ?? 0,
            cacheWrite: r.tok_cw ?? 0,
            cacheRead: r.tok_cr ?? 0,
          },
    toolName: r.tool_name,
    toolStatus: r.tool_status as StoredEvent['toolStatus'],
    summary: r.summary,
    attrs: r.attrs ? (JSON.parse(r.attrs) as Record<string, unknown>) : {},
  };
}

/** Ledger and path of files by id, looked up once per file. */
export function fileNames(db: Queryable): (ids: number[]) => Promise<Map<number, FileName>> {
  const cache = new Map<number, FileName>();
  return async (ids) => {
    const missing = [...new Set(ids)].filter((id) => !cache.has(id));
    if (missing.length) {
      const { rows } = await db.query<FileName & { id: number }>('SELECT id, ledger, rel_path FROM files WHERE id = ANY($1::int[])', [missing]);
      for (const r of rows) cache.set(r.id, { ledger: r.ledger, rel_path: r.rel_path });
      for (const id of missing) if (!cache.has(id)) cache.set(id, { ledger: '', rel_path: '' });
    }
    return cache;
  };
}

/** Every event of session `sid` (whose id is `sessionId`), in timeline order. */
export async function readSessionEvents(db: Queryable, sid: number, sessionId: string): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventRowDb>(`SELECT ${EVENT_COLUMNS} FROM events e WHERE e.sid = $1 ORDER BY e.seq`, [sid]);
  const files = await fileNames(db)(rows.map((r) => r.file_id));
  return rows.map((r) => eventFromRow(r, sessionId, files.get(r.file_id)!)).sort(compareTimeline);
}

interface KeyRowDb {
  sid: number;
  seq: number;
  ts_ms: number | null;
  ts_ns: number | null;
  ledger_rank: number;
  tiebreak: string;
  file_id: number;
  line_number: number;
  part: number;
}

/**
 * One page of the merged timeline of several sessions in compareTimeline order: the sort keys of
 * every event are read and sorted here (the same comparator as SQLite, so no collation or NULL
 * ordering rule of the server can change the order), then only the page's rows.
 */
export async function readTimelinePage(
  db: Queryable,
  sessions: { sid: number; id: string }[],
  offset: number,
  limit: number,
): Promise<{ total: number; events: StoredEvent[] }> {
  if (sessions.length === 0) return { total: 0, events: [] };
  const sids = sessions.map((s) => s.sid);
  const { rows } = await db.query<KeyRowDb>(
    `SELECT sid, seq, ts_ms, ts_ns, ledger_rank, coalesce(tiebreak, entry_id, '') AS tiebreak, file_id, line_number, part
     FROM events WHERE sid = ANY($1::int[])`,
    [sids],
  );
  const files = await fileNames(db)(rows.map((r) => r.file_id));
  const keyed = rows.map((r) => ({
    r,
    tsKey: r.ts_ms === null ? null : partsToKey(r.ts_ms, r.ts_ns ?? 0),
    ledgerRank: r.ledger_rank,
    tiebreak: r.tiebreak,
    file: files.get(r.file_id)!.rel_path,
    lineNumber: r.line_number,
    part: r.part,
  }));
  keyed.sort(compareTimeline);
  const page = keyed.slice(offset, offset + limit);
  if (page.length === 0) return { total: keyed.length, events: [] };
  const { rows: full } = await db.query<EventRowDb & { sid: number }>(
    `SELECT e.sid, ${EVENT_COLUMNS} FROM events e JOIN unnest($1::int[], $2::int[]) AS p(sid, seq) ON e.sid = p.sid AND e.seq = p.seq`,
    [page.map((k) => k.r.sid), page.map((k) => k.r.seq)],
  );
  const bySidSeq = new Map(full.map((r) => [`${r.sid}:${r.seq}`, r]));
  const idOf = new Map(sessions.map((s) => [s.sid, s.id]));
  const events = page.map((k) => {
    const r = bySidSeq.get(`${k.r.sid}:${k.r.seq}`)!;
    return eventFromRow(r, idOf.get(k.r.sid)!, files.get(r.file_id)!);
  });
  return { total: keyed.length, events };
}
