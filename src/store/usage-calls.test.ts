// usage_calls on both engines: the rows the summarisers chose, the same row for row on SQLite and
// PostgreSQL (after ingest, after an appended source, after the migration rebuilds an existing
// store), the same grouped rows, and a store written before the summarisers chose the rows answers
// the same once upgraded (and after its first ingest, the same as a store ingested anew). The fifth
// token kind (reasoning: Gemini's thoughts) is held alike on both engines, and a store written
// before it (SQLite schema 4, PostgreSQL 3) gets its columns with none and answers as before.

import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, expectSameStore, tempDir } from '../../test/helpers.js';
import { ingestPaths } from '../ingest/ingest.js';
import { LONG_CONTEXT_THRESHOLD } from '../usage/pricing.js';
import { dropSchema, postgresUnavailable, TEST_PG_URL, uniqueSchema, withSchema } from './conformance/engines.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { LATEST_SCHEMA } from './sqlite/migrations.js';
import { PG_LATEST_SCHEMA } from './postgres/migrations.js';
import type { UsageCallGroupRow } from './store.js';

const unavailable = await postgresUnavailable();

const FIXTURE_ROOTS = ['claude-code', 'amplifier/normal', 'amplifier/edge', 'amplifier/real', 'control-plane/normal', 'control-plane/edge'];
const COLUMNS = 's.id, u.seq, u.call_key, u.mirror, u.ts_ms, u.ts_ns, u.model, u.tok_in, u.tok_out, u.tok_cw, u.tok_cw1h, u.tok_cr, u.cost, u.tok_rs';
/** Gemini chats: their thoughts are the reasoning kind. */
const GEMINI_ROOT = 'other-agents/gemini/tmp';
/** Undo SQLite schema 5 / PostgreSQL 4 (the reasoning columns); the caller deletes the version row. */
const DROP_REASONING = `ALTER TABLE events DROP COLUMN tok_rs; ALTER TABLE sessions DROP COLUMN own_reasoning;
  ALTER TABLE sessions DROP COLUMN total_reasoning;`;
const SESSION_TOKENS = 'SELECT id, own_output, own_reasoning, total_output, total_reasoning FROM sessions ORDER BY id';
const ORDER = 'ORDER BY s.id, u.seq';

function sqliteCalls(db: Database.Database, columns = COLUMNS): unknown[][] {
  return db.prepare(`SELECT ${columns} FROM usage_calls u JOIN sessions s ON s.sid = u.sid ${ORDER}`).raw(true).all() as unknown[][];
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
const sortedGroups = async (store: SqliteStore | PostgresStore, threshold = LONG_CONTEXT_THRESHOLD) => {
  const found = await store.usageCallGroups(threshold);
  return { sessions: found.sessions.sort((x, y) => (x.id < y.id ? -1 : 1)), groups: found.groups.sort(byKey) };
};

/**
 * How schema 3 chose the rows, in SQL (kept here as the reference the upgrade is held to): per
 * session and usage key the largest record, ties to the earlier (no time, time, sequence).
 */
const SCHEMA_3_ROWS = `CREATE TABLE usage_calls (sid INTEGER NOT NULL, ts_ms INTEGER, ts_ns INTEGER NOT NULL, seq INTEGER NOT NULL, model TEXT,
  tok_in INTEGER NOT NULL, tok_out INTEGER NOT NULL, tok_cw INTEGER NOT NULL, tok_cw1h INTEGER NOT NULL, tok_cr INTEGER NOT NULL, cost REAL);
CREATE INDEX usage_calls_sid ON usage_calls(sid);
INSERT INTO usage_calls SELECT sid, ts_ms, ts_ns, seq, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost FROM (
  SELECT sid, ts_ms, ifnull(ts_ns, 0) AS ts_ns, seq, model, tok_in, ifnull(tok_out, 0) AS tok_out, ifnull(tok_cw, 0) AS tok_cw,
    ifnull(json_extract(attrs, '$.cacheWrite1h'), 0) AS tok_cw1h, ifnull(tok_cr, 0) AS tok_cr, json_extract(attrs, '$.costUsd') AS cost,
    row_number() OVER (
      PARTITION BY sid, ifnull(usage_key, ifnull(message_id, 'null') || ':' || ifnull(request_id, 'null'))
      ORDER BY tok_in + ifnull(tok_out, 0) + ifnull(tok_cw, 0) + ifnull(tok_cr, 0) DESC, ts_ms IS NOT NULL, ts_ms, ifnull(ts_ns, 0), seq
    ) AS pick
  FROM events WHERE tok_in IS NOT NULL
) WHERE pick = 1;`;

describe('usage_calls on SQLite', () => {
  it('answers the same after upgrading a store written before the summarisers chose the rows', async () => {
    const roots = FIXTURE_ROOTS.map((f) => copyFixture(f));
    const path = join(tempDir('hs-usage-'), 'h.db');
    const store = new SqliteStore(path);
    await ingestPaths(store, roots);
    const before = await sortedGroups(store);
    const chosen = sqliteCalls(store.db, 's.id, u.seq, u.ts_ms, u.ts_ns, u.model, u.tok_in, u.tok_out, u.tok_cw, u.tok_cw1h, u.tok_cr, u.cost');
    // Mirrored calls: the sub-agent fixtures make the summariser mark some.
    expect(sqliteCalls(store.db).some((r) => r[3] === 1)).toBe(true);
    await store.close();

    // Back to schema 3: its table, filled by its SQL, no reasoning columns, and no later version.
    const raw = new Database(path);
    raw.exec(`DROP TABLE usage_calls; ${SCHEMA_3_ROWS} ${DROP_REASONING} DELETE FROM schema_version WHERE version > 3;`);
    const schema3 = sqliteCalls(raw, 's.id, u.seq, u.ts_ms, u.ts_ns, u.model, u.tok_in, u.tok_out, u.tok_cw, u.tok_cw1h, u.tok_cr, u.cost');
    expect(schema3).toEqual(chosen);
    raw.close();

    const upgraded = new SqliteStore(path);
    try {
      expect(sqliteCalls(upgraded.db, 's.id, u.seq, u.ts_ms, u.ts_ns, u.model, u.tok_in, u.tok_out, u.tok_cw, u.tok_cw1h, u.tok_cr, u.cost')).toEqual(schema3);
      expect(await sortedGroups(upgraded)).toEqual(before);
      // Every session waits to be summarised again by its format (which marks the mirrors).
      expect((upgraded.db.prepare('SELECT count(*) AS n FROM sessions WHERE dirty = 0').get() as { n: number }).n).toBe(0);
      await ingestPaths(upgraded, roots);
      const fresh = new SqliteStore(join(tempDir('hs-usage-'), 'h.db'));
      await ingestPaths(fresh, roots);
      expectSameStore(upgraded, fresh);
      expect(sqliteCalls(upgraded.db)).toEqual(sqliteCalls(fresh.db));
      await fresh.close();
    } finally {
      await upgraded.close();
    }
  });
});

describe('reasoning tokens on SQLite', () => {
  it('keeps Gemini thoughts apart from output on events, calls and session totals', async () => {
    const store = new SqliteStore(join(tempDir('hs-usage-'), 'h.db'));
    try {
      await ingestPaths(store, [copyFixture(GEMINI_ROOT)]);
      const calls = sqliteCalls(store.db);
      expect(calls.filter((r) => (r[13] as number) > 0).length).toBeGreaterThan(0);
      const events = store.db.prepare('SELECT sum(tok_rs) AS rs, count(tok_rs) AS n FROM events').get() as { rs: number; n: number };
      expect(events.rs).toBe(calls.reduce((sum, r) => sum + (r[13] as number), 0));
      const sessions = store.db.prepare(SESSION_TOKENS).all() as { own_reasoning: number; total_reasoning: number }[];
      expect(sessions.reduce((sum, r) => sum + r.own_reasoning, 0)).toBe(events.rs);
      // The grouped rows carry it; the calls' thoughts are not in their output.
      const { groups } = await sortedGroups(store);
      expect(groups.reduce((sum, g) => sum + g.reasoning, 0)).toBe(events.rs);
      const row = (await store.getSession('37b7abef-713d-4522-85f0-8ff15a4e6d17'))!;
      // ccusage 20.0.24's figures for this chat: input 25,301, output 1,441 (thoughts left out), cache read 62,117, total 91,773.
      expect(row.tokensOwn).toEqual({ input: 25_301, output: 1_441, cacheWrite: 0, cacheRead: 62_117, reasoning: 91_773 - 25_301 - 1_441 - 62_117 });
    } finally {
      await store.close();
    }
  });

  it('upgrades a store written before the reasoning kind: none on every row, the same answers', async () => {
    const roots = FIXTURE_ROOTS.map((f) => copyFixture(f));
    const path = join(tempDir('hs-usage-'), 'h.db');
    const store = new SqliteStore(path);
    await ingestPaths(store, roots);
    const before = await sortedGroups(store);
    const calls = sqliteCalls(store.db);
    const sessions = store.db.prepare(SESSION_TOKENS).all();
    await store.close();

    // Back to schema 4: no tok_rs on events or calls, no reasoning totals, no version 5.
    const raw = new Database(path);
    raw.exec(`${DROP_REASONING} ALTER TABLE usage_calls DROP COLUMN tok_rs; DELETE FROM schema_version WHERE version > 4;`);
    raw.close();

    const upgraded = new SqliteStore(path);
    try {
      expect((upgraded.db.prepare('SELECT max(version) AS v FROM schema_version').get() as { v: number }).v).toBe(LATEST_SCHEMA);
      expect(sqliteCalls(upgraded.db)).toEqual(calls);
      expect(upgraded.db.prepare(SESSION_TOKENS).all()).toEqual(sessions);
      expect(await sortedGroups(upgraded)).toEqual(before);
      // Nothing to summarise again: the new kind is zero for every format already stored.
      expect((upgraded.db.prepare('SELECT count(*) AS n FROM sessions WHERE dirty = 1').get() as { n: number }).n).toBe(0);
      // New sources fill the new columns as in a store made at schema 5.
      const gemini = copyFixture(GEMINI_ROOT);
      await ingestPaths(upgraded, [...roots, gemini]);
      const fresh = new SqliteStore(join(tempDir('hs-usage-'), 'h.db'));
      await ingestPaths(fresh, [...roots, gemini]);
      expectSameStore(upgraded, fresh);
      expect(sqliteCalls(upgraded.db)).toEqual(sqliteCalls(fresh.db));
      expect(upgraded.db.prepare(SESSION_TOKENS).all()).toEqual(fresh.db.prepare(SESSION_TOKENS).all());
      await fresh.close();
    } finally {
      await upgraded.close();
    }
  });
});

describe.skipIf(unavailable !== null)('usage_calls on PostgreSQL', () => {
  const schema = uniqueSchema('hs_usage');
  const url = withSchema(TEST_PG_URL, schema);
  let roots: string[];
  let sqlite: SqliteStore;
  let postgres: PostgresStore;

  beforeAll(async () => {
    // Copies: the last test appends to a transcript.
    roots = FIXTURE_ROOTS.map((f) => copyFixture(f));
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
    const a = sqliteCalls(sqlite.db);
    // Claude Code calls (mirrors among them), Amplifier calls with recorded costs, Control Plane exchanges.
    expect(a.length).toBeGreaterThan(100);
    expect(a.some((r) => r[12] !== null)).toBe(true);
    expect(a.some((r) => r[3] === 1)).toBe(true);
    expect(await postgresCalls(postgres)).toEqual(a);
  });

  it('gives the same grouped rows, fewer than the calls', async () => {
    expect(await sortedGroups(postgres)).toEqual(await sortedGroups(sqlite));
    expect((await sortedGroups(sqlite)).groups.length).toBeLessThan(sqliteCalls(sqlite.db).length);
    // A low threshold puts calls on the long side: the split is made in both engines alike.
    const low = await sortedGroups(postgres, 1000);
    expect(low.groups.some((g) => g.long)).toBe(true);
    expect(low).toEqual(await sortedGroups(sqlite, 1000));
  });

  it('rebuilds the rows from the events when the migration runs on a store written before it', async () => {
    const before = await postgresCalls(postgres);
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    try {
      // Back to schema 2: no usage_calls, no reasoning columns (migration 4), no later version.
      await admin.query(`SET search_path TO ${schema}; DROP TABLE usage_calls; ${DROP_REASONING} DELETE FROM schema_version WHERE version >= 3`);
    } finally {
      await admin.end();
    }
    const reopened = await PostgresStore.open(url);
    try {
      // Without a format to ask, no row is a mirror until the next ingest summarises again.
      expect(await postgresCalls(reopened)).toEqual(before.map((r) => [...r.slice(0, 3), 0, ...r.slice(4)]));
      expect(await sortedGroups(reopened)).toEqual(await sortedGroups(sqlite));
      await ingestPaths(reopened, roots);
      expect(await postgresCalls(reopened)).toEqual(before);
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
    const before = sqliteCalls(sqlite.db).length;
    await ingestPaths(sqlite, roots);
    await ingestPaths(postgres, roots);
    const a = sqliteCalls(sqlite.db);
    expect(a.length).toBe(before + 1);
    expect(a.find((r) => r[2] === 'msg-appended:req-appended' && r[8] === 30)).toBeDefined();
    expect(await postgresCalls(postgres)).toEqual(a);
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

describe.skipIf(unavailable !== null)('reasoning tokens on PostgreSQL', () => {
  const schemas: string[] = [];
  /** A schema of its own per test (the upgrade test takes its store apart). */
  const freshUrl = () => {
    schemas.push(uniqueSchema('hs_reasoning'));
    return withSchema(TEST_PG_URL, schemas[schemas.length - 1]!);
  };

  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });

  it('holds the same calls, groups and session totals as SQLite, Gemini thoughts apart from output', async () => {
    const roots = [copyFixture(GEMINI_ROOT), copyFixture('claude-code')];
    const sqlite = new SqliteStore(join(tempDir('hs-usage-'), 'h.db'));
    const postgres = await PostgresStore.open(freshUrl());
    try {
      await ingestPaths(sqlite, roots);
      await ingestPaths(postgres, roots);
      const calls = sqliteCalls(sqlite.db);
      expect(calls.some((r) => (r[13] as number) > 0)).toBe(true);
      expect(await postgresCalls(postgres)).toEqual(calls);
      expect(await sortedGroups(postgres)).toEqual(await sortedGroups(sqlite));
      const { rows } = await postgres.pool.query(SESSION_TOKENS);
      expect(rows).toEqual(sqlite.db.prepare(SESSION_TOKENS).all());
      const { rows: events } = await postgres.pool.query('SELECT sum(tok_rs) AS rs FROM events');
      expect(events[0].rs).toBe((sqlite.db.prepare('SELECT sum(tok_rs) AS rs FROM events').get() as { rs: number }).rs);
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  });

  it('upgrades a store written before the reasoning kind (migration 4): none on every row, the same answers', async () => {
    const roots = [copyFixture('claude-code')];
    const url = freshUrl();
    const schema = schemas[schemas.length - 1]!;
    const store = await PostgresStore.open(url);
    await ingestPaths(store, roots);
    const calls = await postgresCalls(store);
    const groups = await sortedGroups(store);
    const { rows: sessions } = await store.pool.query(SESSION_TOKENS);
    await store.close();
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    try {
      await admin.query(`SET search_path TO ${schema}; ${DROP_REASONING} ALTER TABLE usage_calls DROP COLUMN tok_rs; DELETE FROM schema_version WHERE version >= 4`);
    } finally {
      await admin.end();
    }
    const reopened = await PostgresStore.open(url);
    try {
      const { rows: versions } = await reopened.pool.query('SELECT max(version) AS v FROM schema_version');
      expect(versions[0].v).toBe(PG_LATEST_SCHEMA);
      expect(await postgresCalls(reopened)).toEqual(calls);
      expect(await sortedGroups(reopened)).toEqual(groups);
      expect((await reopened.pool.query(SESSION_TOKENS)).rows).toEqual(sessions);
    } finally {
      await reopened.close();
    }
  });
});
