// A session's events in timeline order — the one place the store reads them. Rows come in
// index order (sid, seq) and are sorted in memory with compareTimeline, the same order every
// tool uses; an SQL sort over the join would cost a temporary B-tree per session.

import type Database from 'better-sqlite3';
import { compareTimeline } from '../../core/timeline-order.js';
import type { StoredEvent } from '../../formats/importer.js';
import { EVENT_COLUMNS, eventFromRaw, type FileName } from '../shared/event-row.js';

// The file's ledger and path are looked up once per file, not joined per row: materialising a
// long path string for every event doubled the cost of summaries.
const SELECT = `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.sid = ? ORDER BY e.seq`;
const SELECT_ONE = `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.sid = ? AND e.seq = ?`;
// The sort key of every event, without the rest of the row: a timeline page sorts all keys of the
// session tree and then reads only the rows of the page.
const SELECT_KEYS = `SELECT seq, ts_ms, ts_ns, ledger_rank, ifnull(tiebreak, ifnull(entry_id, '')), file_id, line_number, part
  FROM events WHERE sid = ?`;

interface Statements {
  events: Database.Statement;
  one: Database.Statement;
  keys: Database.Statement;
  file: Database.Statement;
}
const statements = new WeakMap<Database.Database, Statements>();

function prepared(db: Database.Database): Statements {
  let st = statements.get(db);
  if (!st) {
    st = {
      events: db.prepare(SELECT).raw(true),
      one: db.prepare(SELECT_ONE).raw(true),
      keys: db.prepare(SELECT_KEYS).raw(true),
      file: db.prepare('SELECT ledger, rel_path FROM files WHERE id = ?'),
    };
    statements.set(db, st);
  }
  return st;
}

/** Ledger and path of files by id, looked up once per file. */
function fileNames(st: Statements): (id: number) => FileName {
  const files = new Map<number, FileName>();
  return (id) => {
    let f = files.get(id);
    if (!f) {
      f = (st.file.get(id) as FileName | undefined) ?? { ledger: '', rel_path: '' };
      files.set(id, f);
    }
    return f;
  };
}

/** Every event of session `sid` (whose id is `sessionId`), in timeline order. */
export function readSessionEvents(db: Database.Database, sid: number, sessionId: string): StoredEvent[] {
  const st = prepared(db);
  const fileOf = fileNames(st);
  return (st.events.all(sid) as unknown[][]).map((r) => eventFromRaw(r, sessionId, fileOf(r[1] as number))).sort(compareTimeline);
}

/** Pages larger than this read whole sessions instead of row by row. */
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
export function readTimelinePage(
  db: Database.Database,
  sessions: { sid: number; id: string }[],
  offset: number,
  limit: number,
): { total: number; events: StoredEvent[] } {
  if (sessions.length === 1 && offset === 0 && limit > BULK_PAGE) {
    // The whole of one session (an overview): one scan, sorted, without a separate key pass.
    const all = readSessionEvents(db, sessions[0]!.sid, sessions[0]!.id);
    return { total: all.length, events: all.slice(0, limit) };
  }
  const st = prepared(db);
  const fileOf = fileNames(st);
  const keys: TimelineKey[] = [];
  sessions.forEach((s, session) => {
    for (const r of st.keys.all(s.sid) as unknown[][]) {
      keys.push({
        session,
        seq: r[0] as number,
        tsMs: r[1] as number | null,
        tsNs: (r[2] as number | null) ?? 0,
        ledgerRank: r[3] as number,
        tiebreak: r[4] as string,
        file: fileOf(r[5] as number).rel_path,
        lineNumber: r[6] as number,
        part: r[7] as number,
      });
    }
  });
  keys.sort(compareKeys);
  const page = keys.slice(offset, offset + limit);
  // A big page (an overview reading everything) is cheaper as one scan per session than as one
  // point lookup per event.
  const bulk = page.length > BULK_PAGE ? sessions.map((s) => new Map((st.events.all(s.sid) as unknown[][]).map((r) => [r[0] as number, r]))) : null;
  const events = page.map((k) => {
    const s = sessions[k.session]!;
    const r = (bulk ? bulk[k.session]!.get(k.seq) : st.one.get(s.sid, k.seq)) as unknown[];
    return eventFromRaw(r, s.id, fileOf(r[1] as number));
  });
  return { total: keys.length, events };
}
