// The team token table of a store (its file or its schema), on the store's own connection. It is
// created on the first insert, so a store that never had a token is never changed, and reads of it
// need no table.

import type { TokenRow, TokenTable } from '../store.js';
import { createTable, first, tableExists, type Sql } from './sql.js';

/** `touch`: record a use, best effort (the engine knows how to give up rather than delay a request). */
export function tokenTable(sql: Sql, touch: (id: string, at: string) => Promise<void>): TokenTable {
  let created = false;
  // Only a table seen is remembered: another process may create it at any time.
  const exists = async () => created || (created = await tableExists(sql, 'access_tokens'));
  const one = async (text: string, value: string) => ((await exists()) ? ((await first<TokenRow>(sql, text, [value])) ?? null) : null);
  return {
    async insert(row) {
      if (!created) {
        await createTable(
          sql,
          `CREATE TABLE IF NOT EXISTS access_tokens (id text PRIMARY KEY, token_hash text NOT NULL UNIQUE, user_name text NOT NULL,
           projects text NOT NULL, read_only ${sql.dialect.booleanType} NOT NULL, created_at text NOT NULL,
           revoked_at text, last_used_at text)`,
        );
        created = true;
      }
      await sql.run(
        `INSERT INTO access_tokens (id, token_hash, user_name, projects, read_only, created_at, revoked_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [row.id, row.token_hash, row.user_name, row.projects, row.read_only === true || row.read_only === 1, row.created_at, row.revoked_at, row.last_used_at],
      );
    },
    all: async () => ((await exists()) ? sql.all<TokenRow>('SELECT * FROM access_tokens ORDER BY created_at, id') : []),
    byId: (id) => one('SELECT * FROM access_tokens WHERE id = $1', id),
    async revoke(id, at) {
      if (await exists()) await sql.run('UPDATE access_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id]);
    },
    activeByHash: (hash) => one('SELECT * FROM access_tokens WHERE token_hash = $1 AND revoked_at IS NULL', hash),
    any: async () => (await exists()) && (await sql.all('SELECT 1 FROM access_tokens LIMIT 1')).length > 0,
    touch,
  };
}
