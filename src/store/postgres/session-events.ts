// A session's events in timeline order from PostgreSQL, rebuilt into the same StoredEvent shape as
// the SQLite engine (shared/event-row.ts expands the compact columns), for summaries and timeline pages.

import { partsToKey } from '../../core/time.js';
import { compareTimeline } from '../../core/timeline-order.js';
import type { StoredEvent } from '../../formats/importer.js';
import { EVENT_COLUMNS, EVENT_FIELDS, eventFromRaw, type FileName } from '../shared/event-row.js';
import type { Queryable } from './query.js';

type EventRowDb = Record<(typeof EVENT_FIELDS)[number], unknown> & { file_id: number };

/** One stored event from its row (named columns here, the shared positional expansion). */
function eventFromRow(r: EventRowDb, sessionId: string, file: FileName): StoredEvent {
  return eventFromRaw(EVENT_FIELDS.map((f) => r[f]), sessionId, file);
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
