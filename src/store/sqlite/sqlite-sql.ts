// The SQLite side of core/sql.ts: statements prepared once per text and cached, `$n` placeholders
// rewritten to `?` (bound positionally: binding by name costs three times as much), arrays and row
// lists bound as JSON text (read back with json_each), booleans as 0/1.

import type Database from 'better-sqlite3';
import { RowList, rowColumns, type Dialect, type Sql } from '../core/sql.js';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  tableExists: "SELECT count(*) > 0 AS ok FROM sqlite_master WHERE type = 'table' AND name = $1",
  booleanType: 'INTEGER',
  offsetColumn: 'offset',
  roundTrips: false,
  inArray: (expr, param) => `${expr} IN (SELECT value FROM json_each(${param}))`,
  inSubquery: (expr, subquery) => `${expr} IN (${subquery})`,
  rows: (param, alias, columns) => `(SELECT ${rowColumns('j.value', columns, (e) => e)}, j.key + 1 AS n FROM json_each(${param}) j) AS ${alias}`,
  distinctByIndex: (table, key, value, column) => `SELECT DISTINCT e.${column} FROM ${table} e WHERE e.${key} = ${value}`,
  greatest: (a, b) => `max(${a}, ${b})`,
  joinOneByIndex: (table, alias, on) => `JOIN ${table} ${alias} ON ${on}`,
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
  textParam: (param) => param,
  asciiLower: (expr) => `lower(${expr})`,
  jsonTexts: (expr, alias) => `json_each(${expr}) ${alias}`,
  floatSum: (expr) => `sum(${expr})`,
  blobLength: (expr) => `length(${expr})`,
  // A bare column beside min() comes from the row holding the minimum.
  firstEventOfEachLine: (columns, from, where, order) =>
    `SELECT ${columns}, min(e.part) FROM ${from} WHERE ${where} GROUP BY e.line_number ORDER BY e.line_number ${order}`,
  // In process, columns cost nothing to hand over: packing them would only add work.
  packedRow: () => null,
};

interface Prepared {
  statement: Database.Statement;
  /** For each `?` in order, the index of the parameter it stands for. */
  order: number[];
}

function bindable(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof RowList) return JSON.stringify(v.rows);
  if (Array.isArray(v)) return JSON.stringify(v);
  return v;
}

export function sqliteSql(db: Database.Database): Sql {
  const objects = new Map<string, Prepared>();
  const arrays = new Map<string, Prepared>();
  const prepare = (cache: Map<string, Prepared>, text: string, raw: boolean): Prepared => {
    let p = cache.get(text);
    if (!p) {
      const order: number[] = [];
      const statement = db.prepare(
        text.replace(/\$(\d+)/g, (_, n: string) => {
          order.push(Number(n) - 1);
          return '?';
        }),
      );
      p = { statement: raw ? statement.raw(true) : statement, order };
      cache.set(text, p);
    }
    return p;
  };
  const args = (p: Prepared, params: readonly unknown[] = []) => p.order.map((i) => bindable(params[i]));
  return {
    dialect: sqliteDialect,
    all: async <R extends object>(text: string, params?: readonly unknown[]) => {
      const p = prepare(objects, text, false);
      return p.statement.all(...args(p, params)) as R[];
    },
    arrays: async (text, params) => {
      const p = prepare(arrays, text, true);
      return p.statement.all(...args(p, params)) as unknown[][];
    },
    run: async (text, params) => {
      const p = prepare(objects, text, false);
      return p.statement.run(...args(p, params)).changes;
    },
  };
}
