// The token table in a SQLite store (core/tokens.ts), whose one write outside an ingest gives up at
// once when the store is busy.

import type Database from 'better-sqlite3';
import type { TokenTable } from '../store.js';
import { tokenTable } from '../core/tokens.js';
import type { Sql } from '../core/sql.js';

export function sqliteTokens(db: Database.Database, sql: Sql): TokenTable {
  return tokenTable(sql, async (id, at) => {
    // The store's busy timeout is 10 s (for ingest); a request must not wait behind an ingest's
    // write lock just to note a use, so this one write gives up at once instead.
    const previous = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma('busy_timeout = 0');
    try {
      await sql.run('UPDATE access_tokens SET last_used_at = $1 WHERE id = $2', [at, id]);
    } catch {
      // SQLITE_BUSY: skip this one; the next use records it.
    } finally {
      db.pragma(`busy_timeout = ${Number(previous) || 0}`);
    }
  });
}
