// Store.sessionDataVersion on PostgreSQL: one statement hashes, on the server, everything a view
// of one session is made from, so that a kept answer (session_overview's) costs one round trip
// instead of reading those rows and files back to hash them here (three statements, 50-odd wide
// rows for a session with sub-agents).
//
// What is hashed is a superset of what tools/session-overview/version.ts hashes on the client:
// whole session rows (every column, as getSession reads them) of the session, its parent and its
// descendants, and the state of every file sessionLedgers could admit for it (before its format's
// traits choose among them). A change to any of them gives another token; a change elsewhere in
// the store gives the same one.

import { SESSION_SELECT } from '../core/sql-store.js';
import { first, type Sql } from '../core/sql.js';
import { pgDialect } from './query.js';

const STATEMENT = `WITH RECURSIVE tree(id) AS (SELECT id FROM sessions WHERE parent_id = $1
    UNION SELECT s.id FROM sessions s JOIN tree t ON s.parent_id = t.id),
  me AS (SELECT sid, root_id, parent_id FROM sessions WHERE id = $1),
  held AS (${pgDialect.distinctByIndex('events', 'sid', '(SELECT sid FROM me)', 'file_id')}),
  fam AS (${SESSION_SELECT}
    WHERE s.id = ANY(ARRAY(SELECT $1::text COLLATE "C" UNION ALL SELECT parent_id FROM me UNION ALL SELECT id FROM tree))),
  src AS (SELECT f.id, f.ledger, f.rel_path, f.generation, f.superseded, f.size, f.mtime_ms, f.byte_offset, f.lines FROM files f
    WHERE f.session_id = $1 OR f.session_id = ANY(ARRAY(SELECT id FROM tree))
       OR (f.session_id IS NULL AND f.root_id = (SELECT root_id FROM me)) OR f.id = ANY(ARRAY(SELECT file_id FROM held)))
  SELECT encode(sha256(convert_to(concat_ws(E'\\x01',
      (SELECT string_agg(fam::text, E'\\n' ORDER BY fam.id) FROM fam),
      (SELECT string_agg(src::text, E'\\n' ORDER BY src.id) FROM src)), 'UTF8')), 'base64') AS v
  FROM me`;

/**
 * The token of the session with exactly this id, or null when there is none.
 *
 * @example const v = await readSessionDataVersion(sql, '37c1d374-…'); // 'eA342ijb…=' or null
 */
export async function readSessionDataVersion(sql: Sql, id: string): Promise<string | null> {
  // The `s` of a token tells it from the client-side digests a cache may hold under the same key.
  const row = await first<{ v: string }>(sql, STATEMENT, [id]);
  return row ? `s${row.v}` : null;
}
