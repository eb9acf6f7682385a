// A session's events in timeline order — the one place the store reads them. Rows come in index
// order (sid, seq) and are sorted here with the timeline comparator every tool uses: no collation
// or NULL-ordering rule of an engine can change the order, and an SQL sort over the join would cost
// a temporary B-tree per session.

import { compareTimeline } from '../../core/timeline-order.js';
import type { StoredEvent } from '../../formats/importer.js';
import { EVENT_COLUMNS, eventFromRaw, type FileName } from '../shared/event-row.js';
import { RowList, type Sql } from './sql.js';
import { intRowsWithText } from './packed-rows.js';

/** Ledger and path of files by id, looked up once per file (not joined per event row: materialising a long path per event doubled the cost of summaries). */
export async function fileNames(sql: Sql, ids: readonly unknown[]): Promise<Map<number, FileName>> {
  const wanted = [...new Set(ids as number[])];
  const rows = await sql.all<FileName & { id: number }>(
    `SELECT id, ledger, rel_path FROM files WHERE ${sql.dialect.inArray('id', '$1', 'int')}`,
    [wanted],
  );
  const names = new Map(rows.map((r) => [r.id, { ledger: r.ledger, rel_path: r.rel_path }]));
  for (const id of wanted) if (!names.has(id)) names.set(id, { ledger: '', rel_path: '' });
  return names;
}

/** Every event of session `sid` (whose id is `sessionId`), in timeline order. */
export async function readSessionEvents(sql: Sql, sid: number, sessionId: string): Promise<StoredEvent[]> {
  return eventsWhere(sql, 'e.sid = $1', sid, sessionId);
}

/** The events of one session chosen by `where` over `events e` (with `param` as $1), in timeline order. */
async function eventsWhere(sql: Sql, where: string, param: unknown, sessionId: string): Promise<StoredEvent[]> {
  const rows = await sql.arrays(`SELECT ${EVENT_COLUMNS} FROM events e WHERE ${where} ORDER BY e.seq`, [param]);
  const files = await fileNames(sql, rows.map((r) => r[1]));
  return rows.map((r) => eventFromRaw(r, sessionId, files.get(r[1] as number)!)).sort(compareTimeline);
}

/** Pages larger than this read whole sessions instead of the page's rows. */
export const BULK_PAGE = 256;

interface TimelineKey {
  sid: number;
  seq: number;
  tsMs: number | null;
  tsNs: number;
  ledgerRank: number;
  tiebreak: string;
  file: string;
  lineNumber: number;
  part: number;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** compareTimeline on the integer time parts (same order as the time key; events without a time first). */
function compareKeys(a: TimelineKey, b: TimelineKey): number {
  if (a.tsMs !== b.tsMs) {
    if (a.tsMs === null) return -1;
    if (b.tsMs === null) return 1;
    return a.tsMs - b.tsMs;
  }
  return (
    a.tsNs - b.tsNs ||
    a.ledgerRank - b.ledgerRank ||
    cmp(a.tiebreak, b.tiebreak) ||
    cmp(a.file, b.file) ||
    a.lineNumber - b.lineNumber ||
    a.part - b.part
  );
}

/**
 * The sessions of a timeline as the table `fam(sid)` of a WITH clause, from the session id in $1:
 * the session, and with `descendants` its sub-agents and theirs (the tree carries each sid, so
 * no join back to sessions is needed).
 */
export function familyTable(descendants: boolean): string {
  return descendants
    ? `WITH RECURSIVE tree(id, sid) AS (SELECT id, sid FROM sessions WHERE parent_id = $1
         UNION SELECT s.id, s.sid FROM sessions s JOIN tree t ON s.parent_id = t.id),
       fam(sid) AS (SELECT sid FROM sessions WHERE id = $1 UNION ALL SELECT sid FROM tree)`
    : 'WITH fam(sid) AS (SELECT sid FROM sessions WHERE id = $1)';
}

/**
 * One page of the timeline of the session `id` (with `descendants`, merged with its sub-agents'),
 * in the order of compareTimeline. Only the sort keys of all events are read, with the sessions
 * found in the same statement; full rows only for the page, each with its session's id.
 */
export async function readTimelinePage(
  sql: Sql,
  id: string,
  descendants: boolean,
  offset: number,
  limit: number,
): Promise<{ total: number; events: StoredEvent[] }> {
  if (!descendants && offset === 0 && limit > BULK_PAGE) {
    // The whole of one session (an overview): one scan, sorted, without a separate key pass.
    // The session's sid is found in the same statement.
    const all = await eventsWhere(sql, 'e.sid = (SELECT sid FROM sessions WHERE id = $1)', id, id);
    return { total: all.length, events: all.slice(0, limit) };
  }
  const family = familyTable(descendants);
  const inFamily = sql.dialect.inSubquery('e.sid', 'SELECT sid FROM fam');
  const rows = await intRowsWithText(
    sql,
    family,
    ['e.sid', 'e.seq', 'e.ts_ms', 'e.ts_ns', 'e.ledger_rank', 'e.file_id', 'e.line_number', 'e.part'],
    "coalesce(e.tiebreak, e.entry_id, '')",
    `FROM events e WHERE ${inFamily}`,
    [id],
  );
  if (rows.length === 0) return { total: 0, events: [] };
  const files = await fileNames(sql, rows.map((r) => r[5]));
  const keys: TimelineKey[] = rows.map((r) => ({
    sid: r[0] as number,
    seq: r[1] as number,
    tsMs: r[2] as number | null,
    tsNs: (r[3] as number | null) ?? 0,
    ledgerRank: r[4] as number,
    tiebreak: r[8] as string,
    file: files.get(r[5] as number)!.rel_path,
    lineNumber: r[6] as number,
    part: r[7] as number,
  }));
  keys.sort(compareKeys);
  const page = keys.slice(offset, offset + limit);
  if (page.length === 0) return { total: keys.length, events: [] };
  // A big page (an overview reading everything) is cheaper as one scan per session than as a
  // lookup per event.
  const full =
    page.length > BULK_PAGE
      ? await sql.arrays(`${family} SELECT e.sid, s.id, ${EVENT_COLUMNS} FROM events e JOIN sessions s ON s.sid = e.sid WHERE ${inFamily}`, [id])
      : await sql.arrays(
          `SELECT e.sid, s.id, ${EVENT_COLUMNS} FROM ${sql.dialect.rows('$1', 'p', [['sid', 'int'], ['seq', 'int']])}
           JOIN events e ON e.sid = p.sid AND e.seq = p.seq JOIN sessions s ON s.sid = e.sid`,
          [new RowList(page.map((k) => [k.sid, k.seq]))],
        );
  const bySidSeq = new Map(full.map((r) => [`${r[0]}:${r[2]}`, r]));
  const events = page.map((k) => {
    const r = bySidSeq.get(`${k.sid}:${k.seq}`)!;
    return eventFromRaw(r.slice(2), r[1] as string, files.get(r[3] as number)!);
  });
  return { total: keys.length, events };
}
