// For tests: the statements a PostgreSQL store sends through its pool, so a test can pin how many
// round trips a read costs (the machine-independent figure of issue 17's target 5).

import type pg from 'pg';
import type { PostgresStore } from './postgres-store.js';

/**
 * The text of every statement `store` sends through its pool while `fn` runs, in order.
 *
 * @example expect(await statementsDuring(store, () => store.listSessions({ limit: 20 }))).toHaveLength(2)
 */
export async function statementsDuring(store: PostgresStore, fn: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const query = store.pool.query.bind(store.pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
  (store.pool as unknown as { query: typeof query }).query = (config) => {
    texts.push(config.text);
    return query(config);
  };
  try {
    await fn();
  } finally {
    (store.pool as unknown as { query: typeof query }).query = query;
  }
  return texts;
}
