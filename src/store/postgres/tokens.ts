// The token table in a PostgreSQL store, in the store's schema through its pool and retries;
// created idempotently on first insert, so the engine's migrations stay untouched.

import type { TokenRow, TokenTable } from '../store.js';
import type { Queryable } from './query.js';

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

/** `db`: reads retried as the engine's own are, so a server that stays away is STORE_UNAVAILABLE. */
export function postgresTokens(db: Queryable): TokenTable {
  let created = false;
  const exists = async () => {
    if (created) return true;
    const { rows } = await db.query<{ ok: boolean }>("SELECT to_regclass('access_tokens') IS NOT NULL AS ok");
    return (created = rows[0]?.ok === true);
  };
  const one = async (sql: string, value: string) => ((await exists()) ? ((await db.query<TokenRow>(sql, [value])).rows[0] ?? null) : null);
  return {
    async insert(row) {
      if (!created) {
        try {
          await db.query(CREATE);
        } catch (err) {
          if (!ALREADY_THERE.has((err as { code?: string }).code ?? '')) throw err;
        }
        created = true;
      }
      await db.query(
        `INSERT INTO access_tokens (id, token_hash, user_name, projects, read_only, created_at, revoked_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [row.id, row.token_hash, row.user_name, row.projects, row.read_only === true || row.read_only === 1, row.created_at, row.revoked_at, row.last_used_at],
      );
    },
    async all() {
      return (await exists()) ? (await db.query<TokenRow>('SELECT * FROM access_tokens ORDER BY created_at, id')).rows : [];
    },
    byId: (id) => one('SELECT * FROM access_tokens WHERE id = $1', id),
    async revoke(id, at) {
      if (await exists()) await db.query('UPDATE access_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id]);
    },
    activeByHash: (hash) => one('SELECT * FROM access_tokens WHERE token_hash = $1 AND revoked_at IS NULL', hash),
    async any() {
      return (await exists()) && (await db.query('SELECT 1 FROM access_tokens LIMIT 1')).rows.length > 0;
    },
    async touch(id, at) {
      // Best effort: a use not recorded is not worth failing the request for.
      await db.query('UPDATE access_tokens SET last_used_at = $1 WHERE id = $2', [at, id]).catch(() => {});
    },
  };
}
