// The PostgreSQL side of core/sql.ts, over a pool (reads, each statement retried on transient
// failures) or one client inside a transaction (writes, retried as a whole group by the writer).
// Text parameters lose their NUL characters here, the one place: PostgreSQL text cannot hold them.

import type pg from 'pg';
import { RowList, rowColumns, type Dialect, type Sql } from '../core/sql.js';
import { withRetry } from './connection.js';
import { preparing } from './prepared.js';

/** What the engine needs of a connection: a pool or a client. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(config: pg.QueryConfig | pg.QueryArrayConfig): Promise<pg.QueryResult<R>>;
}

export const pgDialect: Dialect = {
  name: 'postgres',
  tableExists: 'SELECT to_regclass($1) IS NOT NULL AS ok',
  booleanType: 'boolean',
  offsetColumn: 'byte_offset',
  roundTrips: true,
  inArray: (expr, param, type) => `${expr} = ANY(${param}::${type}[])`,
  inSubquery: (expr, subquery) => `${expr} = ANY(ARRAY(${subquery}))`,
  rows: (param, alias, columns) =>
    `(SELECT ${rowColumns('j.v', columns, (e, type) => `(${e})::${type}`)}, j.n FROM json_array_elements(${param}::json) WITH ORDINALITY AS j(v, n)) AS ${alias}`,
  // Each step finds the next value after the last one on the index (min() of a range is one probe).
  distinctByIndex: (table, key, value, column) =>
    `WITH RECURSIVE k(v) AS (SELECT min(e.${column}) FROM ${table} e WHERE e.${key} = ${value}
       UNION ALL SELECT (SELECT min(e.${column}) FROM ${table} e WHERE e.${key} = ${value} AND e.${column} > k.v) FROM k WHERE k.v IS NOT NULL)
     SELECT v AS ${column} FROM k WHERE v IS NOT NULL`,
  greatest: (a, b) => `greatest(${a}, ${b})`,
  joinOneByIndex: (table, alias, on) => `CROSS JOIN LATERAL (SELECT * FROM ${table} ${alias} WHERE ${on} LIMIT 1) ${alias}`,
  contains: (haystack, needle) => `strpos(${haystack}, ${needle}) > 0`,
  textParam: (param) => `${param}::text COLLATE "C"`,
  // lower() of "C"-collated text folds ASCII only.
  asciiLower: (expr) => `lower(${expr} COLLATE "C")`,
  jsonTexts: (expr, alias) => `json_array_elements_text(${expr}::json) AS ${alias}(value)`,
  // sum() as SQLite computes it over doubles (migration 2), so grouped costs are the same doubles.
  floatSum: (expr) => `sqlite_sum(${expr})`,
  blobLength: (expr) => `octet_length(${expr})`,
  firstEventOfEachLine: (columns, from, where, order) =>
    `SELECT DISTINCT ON (e.line_number) ${columns} FROM ${from} WHERE ${where} ORDER BY e.line_number ${order}, e.part, e.seq`,
  // Integers print without commas, so the text after the last integer's comma is the text column whole.
  packedRow: (ints, text) => `concat_ws(',', ${ints.map((e) => `coalesce((${e})::text, '')`).join(', ')}, ${text})`,
};

/** PostgreSQL text cannot hold NUL: it becomes U+FFFD (SQLite would keep it; such text is vanishingly rare in logs). */
export function pgText<T>(v: T): T {
  return (typeof v === 'string' && v.includes('\u0000') ? v.replace(/\u0000/g, '\uFFFD') : v) as T;
}

/** Lone surrogates as U+FFFD, as the driver's UTF-8 encoding turns them in plain text parameters. */
function wellFormed(s: string): string {
  return (s as string & { toWellFormed(): string }).toWellFormed();
}

function bindable(v: unknown): unknown {
  if (typeof v === 'string') return pgText(v);
  // JSON text must also be valid for the server's json type: no NUL, no lone surrogate.
  if (v instanceof RowList) return JSON.stringify(v.rows, (_, x: unknown) => (typeof x === 'string' ? wellFormed(pgText(x)) : x));
  if (Array.isArray(v)) return v.map(pgText);
  return v;
}

export function postgresSql(db: Queryable): Sql {
  const values = (params?: readonly unknown[]) => params?.map(bindable);
  return {
    dialect: pgDialect,
    all: async <R extends object>(text: string, params?: readonly unknown[]) =>
      (await db.query<R & pg.QueryResultRow>({ text, values: values(params) })).rows as R[],
    arrays: async (text, params) => (await db.query({ text, values: values(params), rowMode: 'array' })).rows as unknown as unknown[][],
    run: async (text, params) => (await db.query({ text, values: values(params) })).rowCount ?? 0,
  };
}

/** Statements through the pool, each prepared once per connection (prepared.ts) and retried with backoff when the server hiccups. */
export function retryingSql(pool: pg.Pool, location: string): Sql {
  return postgresSql({ query: preparing((config) => withRetry(() => pool.query(config), { location })) as Queryable['query'] });
}
