// usage_calls on PostgreSQL against SQLite's: the same chosen calls row for row on the fixtures
// (after ingest, after the migration fills an existing store, after an appended source), the
// same grouped rows, and attribute values normalised to numbers as SQLite's json_extract + CAST do.

import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { LONG_CONTEXT_THRESHOLD } from '../../usage/pricing.js';
import { dropSchema, postgresUnavailable, TEST_PG_URL, uniqueSchema, withSchema } from '../conformance/engines.js';
import { SqliteStore } from '../sqlite/sqlite-store.js';
import { chosenCallsSelect as sqliteChosenCalls } from '../sqlite/usage-calls.js';
import type { UsageCallGroupRow } from '../store.js';
import { PostgresStore } from './postgres-store.js';
import { ATTRS_JSON } from './usage-calls.js';

const unavailable = await postgresUnavailable();

const COLUMNS = 's.id, u.seq, u.ts_ms, u.ts_ns, u.model, u.tok_in, u.tok_out, u.tok_cw, u.tok_cw1h, u.tok_cr, u.cost';
const ORDER = 'ORDER BY s.id, u.seq';

function sqliteCalls(store: SqliteStore): unknown[][] {
  return store.db.prepare(`SELECT ${COLUMNS} FROM usage_calls u JOIN sessions s ON s.sid = u.sid ${ORDER}`).raw(true).all() as unknown[][];
}

async function postgresCalls(store: PostgresStore): Promise<unknown[][]> {
  const { rows } = await store.pool.query({ text: `SELECT ${COLUMNS} FROM usage_calls u JOIN sessions s ON s.sid = u.sid ${ORDER}`, rowMode: 'array' });
  return rows as unknown[][];
}

const byKey = (a: UsageCallGroupRow, b: UsageCallGroupRow) => {
  const ka = JSON.stringify([a.sessionId, a.firstMs, a.model, a.long, a.recordedUsd !== null]);
  const kb = JSON.stringify([b.sessionId, b.firstMs, b.model, b.long, b.recordedUsd !== null]);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

describe.skipIf(unavailable !== null)('usage_calls on PostgreSQL', () => {
  const schema = uniqueSchema('hs_usage');
  const url = withSchema(TEST_PG_URL, schema);
  let roots: string[];
  let sqlite: SqliteStore;
  let postgres: PostgresStore;

  beforeAll(async () => {
    // Copies: the last test appends to a transcript.
    roots = ['claude-code', 'amplifier/normal', 'amplifier/edge', 'amplifier/real', 'control-plane/normal', 'control-plane/edge'].map((f) =>
      copyFixture(f),
    );
    sqlite = new SqliteStore(join(tempDir('hs-usage-'), 'h.db'));
    postgres = await PostgresStore.open(url);
    await ingestPaths(sqlite, roots);
    await ingestPaths(postgres, roots);
  }, 120_000);

  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
    await dropSchema(schema);
  });

  it('holds the same chosen calls as SQLite, row for row', async () => {
    const a = sqliteCalls(sqlite);
    // Claude Code calls, Amplifier calls with recorded costs, and Control Plane exchanges.
    expect(a.length).toBeGreaterThan(100);
    expect(a.some((r) => r[10] !== null)).toBe(true);
    expect(await postgresCalls(postgres)).toEqual(a);
  });

  it('gives the same grouped rows, fewer than the calls', async () => {
    const a = await sqlite.usageCallGroups(LONG_CONTEXT_THRESHOLD);
    const b = await postgres.usageCallGroups(LONG_CONTEXT_THRESHOLD);
    expect(b.sessions.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(a.sessions.sort((x, y) => (x.id < y.id ? -1 : 1)));
    expect(b.groups.sort(byKey)).toEqual(a.groups.sort(byKey));
    expect(a.groups.length).toBeLessThan(sqliteCalls(sqlite).length);
    // A low threshold puts calls on the long side: the split is made in both engines alike.
    const low = await postgres.usageCallGroups(1000);
    expect(low.groups.some((g) => g.long)).toBe(true);
    expect(low.groups.sort(byKey)).toEqual((await sqlite.usageCallGroups(1000)).groups.sort(byKey));
  });

  it('fills the table when the migration runs on a store written before it', async () => {
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    try {
      await admin.query(`DROP TABLE ${schema}.usage_calls; DROP FUNCTION ${schema}.sqlite_number(json);
        DROP AGGREGATE ${schema}.sqlite_sum(double precision); DROP FUNCTION ${schema}.sqlite_sum_step(double precision[], double precision);
        DROP FUNCTION ${schema}.sqlite_sum_final(double precision[]); DELETE FROM ${schema}.schema_version WHERE version = 2`);
    } finally {
      await admin.end();
    }
    const reopened = await PostgresStore.open(url);
    try {
      expect(await postgresCalls(reopened)).toEqual(sqliteCalls(sqlite));
    } finally {
      await reopened.close();
    }
  });

  it('is refreshed with the session when its source grows, as SQLite refreshes it', async () => {
    const projects = join(roots[0]!, 'projects');
    const project = readdirSync(projects)[0]!;
    const file = readdirSync(join(projects, project)).find((f) => f.endsWith('.jsonl'))!;
    // A new call, then a larger record of the same call (the larger one must win on both engines).
    const line = (output: number) =>
      `${JSON.stringify({
        type: 'assistant',
        sessionId: file.replace('.jsonl', ''),
        uuid: `u-${output}`,
        timestamp: '2026-11-20T10:00:00.000Z',
        requestId: 'req-appended',
        message: {
          id: 'msg-appended',
          role: 'assistant',
          model: 'claude-opus-4-6',
          content: [{ type: 'text', text: 'appended' }],
          usage: { input_tokens: 10, output_tokens: output, cache_creation_input_tokens: 5, cache_read_input_tokens: 7 },
        },
      })}\n`;
    appendFileSync(join(projects, project, file), line(3) + line(30));
    const before = sqliteCalls(sqlite).length;
    await ingestPaths(sqlite, roots);
    await ingestPaths(postgres, roots);
    const a = sqliteCalls(sqlite);
    expect(a.length).toBe(before + 1);
    expect(a.find((r) => r[4] === 'claude-opus-4-6' && r[6] === 30)).toBeDefined();
    expect(await postgresCalls(postgres)).toEqual(a);
  });

  it('reads attribute values as numbers the way SQLite does', async () => {
    const values: unknown[] = [12, 12.5, -3, 0, '12', ' 7.5 ', '1e5', '1E3', '1.2.3', '+-', 'e', '.', '-', '--1', '1e', '1e+', '+.5', '.e1', '5.', '00012',
      '1-2', '1e400', '-1e400', '1e-400', 'abc', '', '  ', '\t3', '3\n', '0x10', 'a\u0000', true, false, null, [1], { a: 1 }];
    const db = new Database(':memory:');
    db.exec('CREATE TABLE events (sid INTEGER, seq INTEGER, ts_ms INTEGER, ts_ns INTEGER, model TEXT, usage_key TEXT, message_id TEXT, request_id TEXT, tok_in INTEGER, tok_out INTEGER, tok_cw INTEGER, tok_cr INTEGER, attrs TEXT)');
    const insert = db.prepare("INSERT INTO events VALUES (1, ?, NULL, NULL, NULL, ?, NULL, NULL, 1, 0, 0, 0, ?)");
    values.forEach((v, i) => insert.run(i, `k${i}`, JSON.stringify({ cacheWrite1h: v, costUsd: v })));
    const expected = (db.prepare(`SELECT seq, tok_cw1h, cost FROM (${sqliteChosenCalls('1')}) ORDER BY seq`).raw(true).all() as unknown[][]).map((r) => [
      r[0],
      r[1],
      r[2],
    ]);
    db.close();
    const { rows } = await postgres.pool.query({
      text: `SELECT n - 1, coalesce(sqlite_number(a -> 'x'), 0), sqlite_number(a -> 'x')
        FROM (SELECT n, ${ATTRS_JSON} AS a FROM unnest($1::text[]) WITH ORDINALITY AS t(attrs, n)) x ORDER BY n`,
      values: [values.map((v) => JSON.stringify({ x: v }))],
      rowMode: 'array',
    });
    expect(rows).toEqual(expected);
    // Spot checks of the rule itself: a numeric prefix, infinity past the largest double, NULL for words.
    expect(expected.find((r) => r[0] === values.indexOf('1.2.3'))![2]).toBe(1.2);
    expect(expected.find((r) => r[0] === values.indexOf('1e400'))![2]).toBe(Infinity);
    expect(expected.find((r) => r[0] === values.indexOf('abc'))![2]).toBeNull();
  });

  it('sums doubles as SQLite sum() does (compensated), not as a plain float sum', async () => {
    const lists = [[0.1, 0.2, 0.3], [0.16800062500000002, 0.1680006249999999], [1e16, 1, -1e16, 0.5], [3], [1.5, -1.5, 2.25, 1e-17]];
    const db = new Database(':memory:');
    const expected = lists.map((l) => (db.prepare(`SELECT sum(v) AS s FROM (${l.map(() => 'SELECT CAST(? AS REAL) AS v').join(' UNION ALL ')})`).get(...l) as { s: number }).s);
    db.close();
    expect(expected[0]).not.toBe(0.1 + 0.2 + 0.3);
    for (const [i, l] of lists.entries()) {
      const { rows } = await postgres.pool.query('SELECT sqlite_sum(v) AS s FROM unnest($1::float8[]) AS t(v)', [l]);
      expect(rows[0].s, JSON.stringify(l)).toBe(expected[i]);
    }
    const { rows } = await postgres.pool.query('SELECT sqlite_sum(v) AS s FROM unnest($1::float8[]) AS t(v) WHERE v > 1', [[0.5]]);
    expect(rows[0].s).toBeNull();
  });
});
