// The token table in a PostgreSQL store, in the store's schema through its pool and retries;
// created idempotently on first write, so the engine's migrations stay untouched.

import type { Queryable } from '../../../store/postgres/query.js';
import { mintToken, recordFromRow, type NewToken, type TokenRecord, type TokenRow, type TokenStore } from './token-store.js';

const CREATE = `CREATE TABLE IF NOT EXISTS access_tokens (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_name text NOT NULL,
  projects text NOT NULL,
  read_only boolean NOT NULL,
  created_at text NOT NULL,
  revoked_at text,
  last_used_at text
)`;

// Two processes creating the table at once can collide on the catalog even with IF NOT EXISTS.
const ALREADY_THERE = new Set(['42P07', '23505']);

export class PostgresTokens implements TokenStore {
  private created = false;

  constructor(private readonly pool: Queryable) {}

  private async exists(): Promise<boolean> {
    if (this.created) return true;
    const { rows } = await this.pool.query<{ ok: boolean }>("SELECT to_regclass('access_tokens') IS NOT NULL AS ok");
    return (this.created = rows[0]?.ok === true);
  }

  private async ensure(): Promise<void> {
    if (this.created) return;
    try {
      await this.pool.query(CREATE);
    } catch (err) {
      if (!ALREADY_THERE.has((err as { code?: string }).code ?? '')) throw err;
    }
    this.created = true;
  }

  async create(input: NewToken, now = new Date()): Promise<{ token: string; record: TokenRecord }> {
    await this.ensure();
    const { token, row } = mintToken(input, now);
    await this.pool.query(
      `INSERT INTO access_tokens (id, token_hash, user_name, projects, read_only, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [row.id, row.token_hash, row.user_name, row.projects, row.read_only === 1, row.created_at],
    );
    return { token, record: recordFromRow(row) };
  }

  async list(): Promise<TokenRecord[]> {
    if (!(await this.exists())) return [];
    const { rows } = await this.pool.query<TokenRow>('SELECT * FROM access_tokens ORDER BY created_at, id');
    return rows.map(recordFromRow);
  }

  async revoke(id: string, now = new Date()): Promise<TokenRecord | null> {
    if (!(await this.exists())) return null;
    await this.pool.query('UPDATE access_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now.toISOString(), id]);
    const { rows } = await this.pool.query<TokenRow>('SELECT * FROM access_tokens WHERE id = $1', [id]);
    return rows[0] ? recordFromRow(rows[0]) : null;
  }

  async findActive(hash: string): Promise<TokenRecord | null> {
    if (!(await this.exists())) return null;
    const { rows } = await this.pool.query<TokenRow>('SELECT * FROM access_tokens WHERE token_hash = $1 AND revoked_at IS NULL', [hash]);
    return rows[0] ? recordFromRow(rows[0]) : null;
  }

  async anyTokens(): Promise<boolean> {
    if (!(await this.exists())) return false;
    const { rows } = await this.pool.query('SELECT 1 FROM access_tokens LIMIT 1');
    return rows.length > 0;
  }

  async touch(id: string, now = new Date()): Promise<void> {
    await this.pool.query('UPDATE access_tokens SET last_used_at = $1 WHERE id = $2', [now.toISOString(), id]).catch(() => {
      // Best effort: a use not recorded is not worth failing the request for.
    });
  }
}
