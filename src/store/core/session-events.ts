// A session's events in timeline order — the one place the store reads them. Rows come in index
// order (sid, seq) and are sorted here with the timeline comparator every tool uses: no collation
// or NULL-ordering rule of an engine can change the order, and an SQL sort over the join would cost
// a temporary B-tree per session.

import { compareTimeline } from '../../core/timeline-order.js';
import type { StoredEvent } from '../../formats/importer.js';
import { EVENT_COLUMNS, eventFromRaw, type FileName } from '../shared/event-row.js';
import { RowList, type Sql } from './sql.js';

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
  const rows = await sql.arrays(`SELECT ${EVENT_COLUMNS} FROM events e WHERE e.sid = $1 ORDER BY e.seq`, [sid]);
  const files = await fileNames(sql, rows.map((r) => r[1]));
  return rows.map((r) => eventFromRaw(r, sessionId, files.get(r[1] as number)!)).sort(compareTimeline);
}

/** Pages larger than this read whole sessions instead of the page's rows. */
const BULK_PAGE = 256;

interface TimelineKey {
  session: number;
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
 * One page of the merged timeline of several sessions (a session and its sub-agents), in the
 * order of compareTimeline. Only the sort keys of all events are read; full rows only for the page.
 */
export async function readTimelinePage(
  sql: Sql,
  sessions: { sid: number; id: string }[],
  offset: number,
  limit: number,
): Promise<{ total: number; events: StoredEvent[] }> {
  if (sessions.length === 0) return { total: 0, events: [] };
  if (sessions.length === 1 && offset === 0 && limit > BULK_PAGE) {
    // The whole of one session (an overview): one scan, sorted, without a separate key pass.
    const all = await readSessionEvents(sql, sessions[0]!.sid, sessions[0]!.id);
    return { total: all.length, events: all.slice(0, limit) };
  }
  const session = new Map(sessions.map((s, i) => [s.sid, i]));
  const rows = await sql.arrays(
    `SELECT sid, seq, ts_ms, ts_ns, ledger_rank, coalesce(tiebreak, entry_id, ''), file_id, line_number, part
     FROM events WHERE ${sql.dialect.inArray('sid', '$1', 'int')}`,
    [sessions.map((s) => s.sid)],
  );
  const files = await fileNames(sql, rows.map((r) => r[6]));
  const keys: TimelineKey[] = rows.map((r) => ({
    session: session.get(r[0] as number)!,
    seq: r[1] as number,
    tsMs: r[2] as number | null,
    tsNs: (r[3] as number | null) ?? 0,
    ledgerRank: r[4] as number,
    tiebreak: r[5] as string,
    file: files.get(r[6] as number)!.rel_path,
    lineNumber: r[7] as number,
    part: r[8] as number,
  }));
  keys.sort(compareKeys);
  const page = keys.slice(offset, offset + limit);
  if (page.length === 0) return { total: keys.length, events: [] };
  // A big page (an overview reading everything) is cheaper as one scan per session than as a
  // lookup per event.
  const full =
    page.length > BULK_PAGE
      ? await sql.arrays(`SELECT e.sid, ${EVENT_COLUMNS} FROM events e WHERE ${sql.dialect.inArray('e.sid', '$1', 'int')}`, [sessions.map((s) => s.sid)])
      : await sql.arrays(
          `SELECT e.sid, ${EVENT_COLUMNS} FROM ${sql.dialect.rows('$1', 'p', [['sid', 'int'], ['seq', 'int']])}
           JOIN events e ON e.sid = p.sid AND e.seq = p.seq`,
          [new RowList(page.map((k) => [sessions[k.session]!.sid, k.seq]))],
        );
  const bySidSeq = new Map(full.map((r) => [`${r[0]}:${r[1]}`, r]));
  const events = page.map((k) => {
    const s = sessions[k.session]!;
    const r = bySidSeq.get(`${s.sid}:${k.seq}`)!.slice(1);
    return eventFromRaw(r, s.id, files.get(r[1] as number)!);
  });
  return { total: keys.length, events };
}
