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
  const n = ints.length;
  return (await sql.arrays(`${head} SELECT ${packed} ${rest}`, params)).map(([packedRow]) => {
    const row = packedRow as string;
    const out: unknown[] = [];
    let at = 0;
    for (let i = 0; i < n; i++) {
      const end = row.indexOf(',', at);
      out.push(end === at ? null : Number(row.slice(at, end)));
      at = end + 1;
    }
    // The text may hold commas of its own: everything after the integers is the text.
    out.push(row.slice(at));
    return out;
  });
}
