// What the read and write helpers need of a connection: a pool (reads, each retried on transient
// failures) or one client inside a transaction (writes, retried as a whole batch by the writer).

import type pg from 'pg';
import { withRetry } from './connection.js';

export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** Reads through the pool, each statement retried with backoff when the server hiccups. */
export function retryingReads(pool: pg.Pool, location: string): Queryable {
  return {
    query: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => withRetry(() => pool.query<R>(text, values), { location }),
  };
}
