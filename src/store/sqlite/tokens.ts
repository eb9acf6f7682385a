// The token table in a SQLite store, on the store's own connection; created on first insert, so a
// store that never had tokens is never changed and reads of it need no table.

import type Database from 'better-sqlite3';
import type { TokenRow, TokenTable } from '../store.js';

const CREATE = `CREATE TABLE IF NOT EXISTS access_tokens (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_name TEXT NOT NULL,
  projects TEXT NOT NULL,
  read_only INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  last_used_at TEXT
)`;

export function sqliteTokens(db: Database.Database): TokenTable {
  const exists = () => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'access_tokens'").get() !== undefined;
  const one = (sql: string, value: string) => (exists() ? ((db.prepare(sql).get(value) as TokenRow | undefined) ?? null) : null);
  return {
    async insert(row) {
      db.exec(CREATE);
      db.prepare(
        `INSERT INTO access_tokens (id, token_hash, user_name, projects, read_only, created_at, revoked_at, last_used_at)
         VALUES (@id, @token_hash, @user_name, @projects, @read_only, @created_at, @revoked_at, @last_used_at)`,
      ).run({ ...row, read_only: row.read_only === true || row.read_only === 1 ? 1 : 0 });
    },
    async all() {
      return exists() ? (db.prepare('SELECT * FROM access_tokens ORDER BY created_at, id').all() as TokenRow[]) : [];
    },
    async byId(id) {
      return one('SELECT * FROM access_tokens WHERE id = ?', id);
    },
    async revoke(id, at) {
      if (exists()) db.prepare('UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
    },
    async activeByHash(hash) {
      return one('SELECT * FROM access_tokens WHERE token_hash = ? AND revoked_at IS NULL', hash);
    },
    async any() {
      return exists() && db.prepare('SELECT 1 FROM access_tokens LIMIT 1').get() !== undefined;
    },
    async touch(id, at) {
      // The store's busy timeout is 10 s (for ingest); a request must not wait behind an ingest's
      // write lock just to note a use, so this one write gives up at once instead.
      const previous = db.pragma('busy_timeout', { simple: true }) as number;
      db.pragma('busy_timeout = 0');
      try {
        db.prepare('UPDATE access_tokens SET last_used_at = ? WHERE id = ?').run(at, id);
      } catch {
        // SQLITE_BUSY: skip this one; the next use records it.
      } finally {
        db.pragma(`busy_timeout = ${Number(previous) || 0}`);
      }
    },
  };
}
