// The token table in a SQLite store, on the store's own connection; created on first write, so a
// store that never had tokens is never changed and reads of it need no table.

import type Database from 'better-sqlite3';
import { mintToken, recordFromRow, type NewToken, type TokenRecord, type TokenRow, type TokenStore } from './token-store.js';

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

export class SqliteTokens implements TokenStore {
  constructor(private readonly db: Database.Database) {}

  private exists(): boolean {
    return this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'access_tokens'").get() !== undefined;
  }

  async create(input: NewToken, now = new Date()): Promise<{ token: string; record: TokenRecord }> {
    this.db.exec(CREATE);
    const { token, row } = mintToken(input, now);
    this.db
      .prepare(
        `INSERT INTO access_tokens (id, token_hash, user_name, projects, read_only, created_at, revoked_at, last_used_at)
         VALUES (@id, @token_hash, @user_name, @projects, @read_only, @created_at, @revoked_at, @last_used_at)`,
      )
      .run(row);
    return { token, record: recordFromRow(row) };
  }

  async list(): Promise<TokenRecord[]> {
    if (!this.exists()) return [];
    return (this.db.prepare('SELECT * FROM access_tokens ORDER BY created_at, id').all() as TokenRow[]).map(recordFromRow);
  }

  async revoke(id: string, now = new Date()): Promise<TokenRecord | null> {
    if (!this.exists()) return null;
    this.db.prepare('UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now.toISOString(), id);
    const row = this.db.prepare('SELECT * FROM access_tokens WHERE id = ?').get(id) as TokenRow | undefined;
    return row ? recordFromRow(row) : null;
  }

  async findActive(hash: string): Promise<TokenRecord | null> {
    if (!this.exists()) return null;
    const row = this.db.prepare('SELECT * FROM access_tokens WHERE token_hash = ? AND revoked_at IS NULL').get(hash) as TokenRow | undefined;
    return row ? recordFromRow(row) : null;
  }

  async anyTokens(): Promise<boolean> {
    return this.exists() && this.db.prepare('SELECT 1 FROM access_tokens LIMIT 1').get() !== undefined;
  }

  async touch(id: string, now = new Date()): Promise<void> {
    // The store's busy timeout is 10 s (for ingest); a request must not wait behind an ingest's
    // write lock just to note a use, so this one write gives up at once instead.
    const previous = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      this.db.prepare('UPDATE access_tokens SET last_used_at = ? WHERE id = ?').run(now.toISOString(), id);
    } catch {
      // SQLITE_BUSY: skip this one; the next use records it.
    } finally {
      this.db.pragma(`busy_timeout = ${Number(previous) || 0}`);
    }
  }
}
