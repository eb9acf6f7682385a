// Many-row reads of integer keys with one text column, at the engine's cheapest: on PostgreSQL one
// text column per row (built in SQL, split here), since the driver's cost is per field — a
// timeline's 3,796 sort keys took longer to parse as 9 fields a row than as one (measured: the
// sort-key statement 11.0 → 8.3 ms p50); on SQLite the columns as they are.

import type { Sql } from './sql.js';

/**
 * Rows of `SELECT <ints…>, <text> <rest>`, as `sql.arrays` returns them (integers as numbers or
 * null, the text last). `text` must not be NULL (coalesce it).
 *
 * @example await intRowsWithText(sql, 'WITH x AS (…)', ['e.sid', 'e.seq'], "coalesce(e.tiebreak, '')", 'FROM events e WHERE …', [id]);
 */
export async function intRowsWithText(
  sql: Sql,
  head: string,
  ints: readonly string[],
  text: string,
  rest: string,
  params: readonly unknown[],
): Promise<unknown[][]> {
  const packed = sql.dialect.packedRow(ints, text);
  if (packed === null) return sql.arrays(`${head} SELECT ${ints.join(', ')}, ${text} ${rest}`, params);
  return (await sql.arrays(`${head} SELECT ${packed} ${rest}`, params)).map(([packedRow]) => splitPackedRow(packedRow, ints.length));
}

/**
 * One packed row (`n` integers or empty fields, comma-separated, then the text) as its columns.
 * A row with fewer than `n` commas, or a field that is not an integer, is not one the statement
 * built: it throws rather than give a wrong number.
 *
 * @example splitPackedRow('7,,a,b', 2) // [7, null, 'a,b']
 */
export function splitPackedRow(packedRow: unknown, n: number): unknown[] {
  if (typeof packedRow !== 'string') throw new Error(`packed row: expected text, got ${packedRow === null ? 'null' : typeof packedRow}`);
  const out: unknown[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const end = packedRow.indexOf(',', at);
    if (end === -1) throw new Error(`packed row: ${n} integer fields expected before the text, found ${i} in ${JSON.stringify(packedRow.slice(0, 80))}`);
    if (end === at) out.push(null);
    else {
      const value = Number(packedRow.slice(at, end));
      if (!Number.isSafeInteger(value)) throw new Error(`packed row: field ${i + 1} is not an integer: ${JSON.stringify(packedRow.slice(at, Math.min(end, at + 40)))}`);
      out.push(value);
    }
    at = end + 1;
  }
  // The text may hold commas of its own: everything after the integers is the text.
  out.push(packedRow.slice(at));
  return out;
}
