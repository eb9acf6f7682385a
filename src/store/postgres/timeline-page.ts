// A page of a session's timeline cut on the server: the sort keys of every event of the family stay
// there, and one statement answers the page's rows (with their files' names and sessions' ids) and
// the family's event count (a file no longer known reads as '', as fileNames gives it). core/session-events.ts reads every key back, sorts them here and asks
// for the page's rows and files in further statements: three round trips in a row instead of one,
// and the driver parsing thousands of key rows.
//
// The order is compareKeys' (session-events.ts): time (none first), nanoseconds, ledger rank,
// tiebreak, file path, line, part. Text compares as "C" here (code points) and as UTF-16 units in
// JavaScript, which disagree only on characters past U+D7FF; a family whose tiebreaks or paths hold
// any non-ASCII character is therefore left to the client-side sort (null), as are pages over
// BULK_PAGE rows (an overview's whole session reads faster as one scan).

import type { StoredEvent } from '../../core/events.js';
import { BULK_PAGE, familyTable } from '../core/session-events.js';
import type { Sql } from '../core/sql.js';
import { EVENT_COLUMNS, eventFromRaw } from '../shared/event-row.js';

/** Columns before EVENT_COLUMNS in each row of the statement. */
const HEAD = 6;

/** compareKeys as SQL over `k` (sid and seq last: events never tie on the keys before them). */
const ORDER = 'k.ts_ms NULLS FIRST, k.ts_ns, k.ledger_rank, k.tb COLLATE "C", k.rel_path COLLATE "C", k.line_number, k.part, k.sid, k.seq';

function statement(descendants: boolean): string {
  return `${familyTable(descendants)},
    ev AS (SELECT e.sid, e.seq, e.ts_ms, coalesce(e.ts_ns, 0) AS ts_ns, e.ledger_rank, coalesce(e.tiebreak, e.entry_id, '') AS tb,
        e.file_id, e.line_number, e.part
      FROM events e WHERE e.sid = ANY(ARRAY(SELECT sid FROM fam))),
    -- The paths of the few files the events are in, looked up once each (not once per event).
    named AS (SELECT f.id, f.rel_path FROM files f WHERE f.id = ANY(ARRAY(SELECT DISTINCT file_id FROM ev))),
    k AS (SELECT ev.*, coalesce(named.rel_path, '') AS rel_path FROM ev LEFT JOIN named ON named.id = ev.file_id),
    -- Whether every tiebreak and path is ASCII: checked on their concatenations (one length count
    -- each, not two function calls per event).
    info AS (SELECT (SELECT count(*) FROM ev) AS n,
        (SELECT coalesce(octet_length(t) = char_length(t), true) FROM (SELECT string_agg(tb, '') AS t FROM ev) x)
        AND (SELECT coalesce(octet_length(t) = char_length(t), true) FROM (SELECT string_agg(rel_path, '') AS t FROM named) y) AS ascii),
    page AS (SELECT k.* FROM k ORDER BY ${ORDER} LIMIT $3 OFFSET $2)
  SELECT info.n, info.ascii, p.sid, s.id, coalesce(f.ledger, ''), coalesce(f.rel_path, ''), ${EVENT_COLUMNS}
  FROM info LEFT JOIN (page p JOIN events e ON e.sid = p.sid AND e.seq = p.seq JOIN sessions s ON s.sid = e.sid
    LEFT JOIN files f ON f.id = e.file_id) ON true
  ORDER BY ${ORDER.replace(/k\./g, 'p.')}`;
}

/**
 * The page of the timeline of session `id` (with `descendants`, merged with its sub-agents'), as
 * readTimelinePage answers it, or null where this read cannot promise the same order.
 *
 * @example const page = await readTimelinePageOnServer(sql, id, true, 1000, 100); // null → readTimelinePage
 */
export async function readTimelinePageOnServer(
  sql: Sql,
  id: string,
  descendants: boolean,
  offset: number,
  limit: number,
): Promise<{ total: number; events: StoredEvent[] } | null> {
  if (limit > BULK_PAGE) return null;
  const rows = await sql.arrays(statement(descendants), [id, offset, limit]);
  const head = rows[0];
  if (!head || head[1] !== true) return null;
  const events = rows
    .filter((r) => r[2] !== null)
    .map((r) => eventFromRaw(r.slice(HEAD), r[3] as string, { ledger: r[4] as string, rel_path: r[5] as string }));
  return { total: head[0] as number, events };
}
