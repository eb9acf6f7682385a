// Integer keys with a text column read packed as one text column per row (core/packed-rows.ts):
// the same rows, value for value, as the columns read one by one — NULLs, negative and 2^53-1
// integers, and text holding commas or nothing.

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { intRowsWithText } from '../core/packed-rows.js';
import { postgresUnavailable, TEST_PG_URL } from '../conformance/engines.js';
import { postgresSql } from './query.js';

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('packed integer rows on PostgreSQL', () => {
  const pool = new pg.Pool({ connectionString: TEST_PG_URL, max: 1 });
  afterAll(() => pool.end());

  it('reads the rows the plain columns give, value for value', async () => {
    const sql = postgresSql(pool);
    const head = `WITH t(a, b, c) AS (VALUES (1, NULL::bigint, 'x,y'), (2, 9007199254740991, ''), (-3, 0, ',,'), (4, -12, 'plain'), (5, 7, 'é, ü 🙂'))`;
    const packed = await intRowsWithText(sql, head, ['a', 'b'], 'c', 'FROM t ORDER BY a', []);
    expect(sql.dialect.packedRow(['a', 'b'], 'c')).not.toBeNull();
    // What the driver gives column by column (bigint as a JS number, as the store's pool parses it).
    const plain = (await sql.arrays(`${head} SELECT a, b, c FROM t ORDER BY a`)).map(([a, b, c]) => [a, b === null ? null : Number(b), c]);
    expect(packed).toEqual(plain);
    expect(packed).toEqual([
      [-3, 0, ',,'],
      [1, null, 'x,y'],
      [2, 9007199254740991, ''],
      [4, -12, 'plain'],
      [5, 7, 'é, ü 🙂'],
    ]);
  });
});
