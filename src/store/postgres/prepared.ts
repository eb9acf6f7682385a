// Named prepared statements for the store's reads through the pool. The reads are a few dozen
// fixed texts run again and again; named, each connection parses (and, after a few runs, plans)
// each text once instead of on every call. pg keeps the names per connection, so a new connection
// (after a reconnect) prepares them again on first use, and a pool serves one schema only, so a
// name never meets another schema's tables.

import type pg from 'pg';
import { createHash } from 'node:crypto';

/** Distinct texts named per store: statements built with values inside would otherwise grow without end. */
const MAX_NAMED = 500;

// The server refuses a prepared statement whose result columns changed under it (a migration
// added a column to a table read with `*`): the statement is prepared again under a new name.
const RESULT_TYPE_CHANGED = '0A000';
// The server forgot it (DISCARD ALL, a pooler that hands out another session): run it unnamed.
const STATEMENT_GONE = '26000';

export type QueryRunner = (config: pg.QueryConfig | pg.QueryArrayConfig) => Promise<pg.QueryResult>;

/**
 * `run` with each statement named after its text: the same text gets the same name on every
 * connection, until the server says the prepared form is stale.
 *
 * @example const query = preparing((config) => pool.query(config)); await query({ text: 'SELECT 1', values: [] });
 */
export function preparing(run: QueryRunner): QueryRunner {
  const names = new Map<string, string>();
  let renamed = 0;
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= MAX_NAMED) return known;
    const name = `hs_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
    return name;
  };
  return async (config) => {
    const name = nameOf(config.text);
    if (name === undefined) return run(config);
    try {
      return await run({ ...config, name });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === RESULT_TYPE_CHANGED && /cached plan/.test((err as Error).message)) {
        names.set(config.text, `${name}_${++renamed}`);
        return run({ ...config, name: names.get(config.text) });
      }
      if (code === STATEMENT_GONE) return run(config);
      throw err;
    }
  };
}
