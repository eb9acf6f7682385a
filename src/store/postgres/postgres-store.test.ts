// The PostgreSQL engine itself: URLs and schemas, migrations, an unreachable server, retries after
// the server drops connections, and the ingest lock dying with its connection.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import { dropSchema, postgresUnavailable, TEST_PG_URL, uniqueSchema, withSchema } from '../conformance/engines.js';
import { openStore } from '../open.js';
import { isPostgresUrl, parseTarget, withRetry } from './connection.js';
import { PG_MIGRATIONS } from './migrations.js';
import { PostgresStore } from './postgres-store.js';
import { generateClaudeCode } from '../../../bench/generators/claude-code.js';
import { SqliteStore } from '../sqlite/sqlite-store.js';
import type { Store } from '../store.js';

describe('PostgreSQL URLs', () => {
  it('tells URLs from paths, hides the password and reads the schema option', () => {
    expect(isPostgresUrl('postgres://h/db')).toBe(true);
    expect(isPostgresUrl('postgresql://h/db')).toBe(true);
    expect(isPostgresUrl('/tmp/postgres.db')).toBe(false);
    const t = parseTarget('postgres://me:s3cret@db.example:5433/h?schema=team_a&sslmode=disable');
    expect(t.schema).toBe('team_a');
    expect(t.location).toBe('postgres://me@db.example:5433/h?sslmode=disable&schema=team_a');
    expect(t.location).not.toContain('s3cret');
    expect(t.connectionString).not.toContain('schema=');
    expect(parseTarget('postgres://h/db').schema).toBe('public');
  });

  it('refuses schema names it cannot use, with a sentence saying what to use', () => {
    for (const bad of ['Bad-Name', '', 'a'.repeat(64), 'pg_catalog', 'pg_x', 'information_schema', '1abc', 'a;drop', 'a"b', 'ünï']) {
      expect(() => parseTarget(`postgres://h/db?schema=${encodeURIComponent(bad)}`), bad).toThrow(/not a usable PostgreSQL schema name.*lower-case letters/);
    }
    expect(() => parseTarget('postgres://h/db?schema=a&schema=b')).toThrow(/not a usable PostgreSQL schema name/);
  });

  it('never shows a password: in the user part (with : or /), in a password parameter, or in a URL it cannot parse', () => {
    expect(parseTarget('postgres://me:pa%2Fss@db/h').location).toBe('postgres://me@db/h');
    expect(parseTarget('postgres://me:pa:ss@db/h?password=leak&sslpassword=leak2&sslmode=require').location).not.toMatch(/pa|leak/);
    for (const url of ['postgres://me:pa/ss@db/h', 'postgres://me:sec:ret@[bad/db', 'postgres://me:pa/ss@[bad/h?password=leak']) {
      let message = '';
      try {
        parseTarget(url);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, url).toMatch(/cannot be parsed/);
      expect(message, url).not.toMatch(/sec|ret|pa\/ss|leak/);
    }
  });
});

describe('PostgreSQL server out of reach', () => {
  it('says so in one sentence, without a stack trace', async () => {
    const err = (await openStore({ db: 'postgres://postgres:pw@127.0.0.1:1/test?schema=nowhere' }).catch((e: unknown) => e)) as Error & {
      code: string;
    };
    expect(err.code).toBe('STORE_OPEN_FAILED');
    expect(err.message).toMatch(/^Cannot open the PostgreSQL store at postgres:\/\/postgres@127\.0\.0\.1:1\/test\?schema=nowhere \(connection refused/);
    expect(err.message).toMatch(/Check that the server is running/);
    expect(err.message).not.toContain('pw@');
    expect(err.message).not.toMatch(/\n\s+at /);
  });
});

describe('retries', () => {
  it('retries transient failures with backoff and passes other errors through at once', async () => {
    let calls = 0;
    const value = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
        return 'done';
      },
      { baseDelayMs: 1 },
    );
    expect([value, calls]).toEqual(['done', 3]);
    calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw Object.assign(new Error('syntax error'), { code: '42601' });
      }),
    ).rejects.toThrow('syntax error');
    expect(calls).toBe(1);
  });

  it('turns a server that stays away into one sentence naming the store', async () => {
    const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    await expect(withRetry(refused, { attempts: 2, baseDelayMs: 1, location: 'postgres://me@db/h' })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/^Lost the connection to the PostgreSQL store at postgres:\/\/me@db\/h \(connection refused.*run the command again/),
    });
  });
});

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('PostgreSQL store', () => {
  const schemas: string[] = [];
  const fresh = () => {
    const s = uniqueSchema('hs_pg');
    schemas.push(s);
    return s;
  };
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: TEST_PG_URL });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };

  afterAll(async () => {
    for (const s of schemas) await dropSchema(s);
  });

  it('takes a schema named like an SQL keyword (every statement quotes it)', async () => {
    schemas.push('user');
    await dropSchema('user');
    const store = await PostgresStore.open(withSchema(TEST_PG_URL, 'user'));
    await ingestPaths(store, [join(FIXTURES, 'control-plane', 'normal')]);
    expect((await store.listSessions({ limit: 1, offset: 0 })).total).toBe(12);
    await store.close();
  });

  it('creates its schema and tables from empty, records the versions, and reopens without migrating again', async () => {
    const schema = fresh();
    const url = withSchema(TEST_PG_URL, schema);
    const store = await openStore({ db: url });
    expect(store.engine).toBe('postgres');
    expect(store.location).toContain(`schema=${schema}`);
    await store.close();
    const again = await PostgresStore.open(url);
    await again.close();
    const versions = await admin((c) => c.query(`SELECT version FROM ${schema}.schema_version ORDER BY version`));
    expect(versions.rows.map((r: { version: number }) => r.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
  });

  it('lets a user without the right to create anything open and read a current store', async () => {
    const schema = fresh();
    const url = withSchema(TEST_PG_URL, schema);
    const owner = await PostgresStore.open(url);
    await ingestPaths(owner, [join(FIXTURES, 'control-plane', 'normal')]);
    await owner.close();
    const role = `${schema}_reader`;
    await admin(async (c) => {
      await c.query(`CREATE ROLE ${role} LOGIN`);
      await c.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
      await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    });
    try {
      const u = new URL(url);
      u.username = role;
      const reader = await PostgresStore.open(u.toString());
      expect((await reader.listSessions({ limit: 5, offset: 0 })).total).toBe(12);
      await reader.close();
    } finally {
      await admin(async (c) => {
        await c.query(`DROP OWNED BY ${role}`);
        await c.query(`DROP ROLE ${role}`);
      });
    }
  });

  it('opens the store HINDSIGHT_DB names when it is a URL', async () => {
    const schema = fresh();
    const store = await openStore({ env: { HINDSIGHT_DB: withSchema(TEST_PG_URL, schema) } });
    expect([store.engine, store.location.includes(schema)]).toEqual(['postgres', true]);
    await store.close();
  });

  it('refuses a schema written by a newer Hindsight', async () => {
    const schema = fresh();
    const url = withSchema(TEST_PG_URL, schema);
    await (await PostgresStore.open(url)).close();
    await admin((c) => c.query(`INSERT INTO ${schema}.schema_version VALUES (999, 'future', '')`));
    await expect(PostgresStore.open(url)).rejects.toMatchObject({ code: 'STORE_SCHEMA_TOO_NEW' });
  });

  it('vacuums and analyses the tables a first ingest filled, so the planner has statistics and index-only scans (the server may run without autovacuum)', async () => {
    const schema = fresh();
    const store = await PostgresStore.open(withSchema(TEST_PG_URL, schema));
    const stats = () =>
      admin(async (c) => {
        const { rows } = await c.query<{ relname: string; reltuples: number; analysed: boolean; vacuumed: boolean }>(
          `SELECT c.relname, c.reltuples, s.last_analyze IS NOT NULL AS analysed, s.last_vacuum IS NOT NULL AS vacuumed
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
           WHERE n.nspname = $1 AND c.relname IN ('events', 'sessions', 'files') ORDER BY c.relname`,
          [schema],
        );
        return rows;
      });
    // A fresh schema has no statistics at all.
    expect((await stats()).map((r) => r.reltuples)).toEqual([-1, -1, -1]);
    await ingestPaths(store, [join(FIXTURES, 'control-plane', 'normal')]);
    const counts = await admin(async (c) =>
      (await c.query<{ n: number }>(`SELECT (SELECT count(*) FROM ${schema}.events)::int AS n UNION ALL SELECT (SELECT count(*) FROM ${schema}.files)::int UNION ALL SELECT (SELECT count(*) FROM ${schema}.sessions)::int`)).rows.map((r) => r.n),
    );
    expect(counts[2]).toBe(12);
    // A small table is sampled whole: the statistics count exactly the rows there are. Each was
    // vacuumed too (the visibility map an index-only scan needs; how many pages it may mark depends
    // on the other transactions open on the server, so only that it ran is pinned).
    expect(await stats()).toEqual([
      { relname: 'events', reltuples: counts[0], analysed: true, vacuumed: true },
      { relname: 'files', reltuples: counts[1], analysed: true, vacuumed: true },
      { relname: 'sessions', reltuples: 12, analysed: true, vacuumed: true },
    ]);
    await store.close();
  });

  it('finds the files holding a session\'s events by index (migration 9): events_sid_file on (sid, file_id)', async () => {
    const schema = fresh();
    const store = await PostgresStore.open(withSchema(TEST_PG_URL, schema));
    const defs = await admin(async (c) => (await c.query<{ indexdef: string }>('SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2', [schema, 'events'])).rows.map((r) => r.indexdef));
    expect(defs.find((d) => d.includes('events_sid_file'))).toMatch(/\(sid, file_id\)$/);
    await store.close();
  });

  it('never waits for statistics: a table another session holds locked is skipped by the closing ANALYZE', async () => {
    const schema = fresh();
    const store = await PostgresStore.open(withSchema(TEST_PG_URL, schema));
    // schema_version: never analysed and never written by an ingest, so only the ANALYZE would touch it.
    const holder = new pg.Client({ connectionString: TEST_PG_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE ${schema}.schema_version IN ACCESS EXCLUSIVE MODE`);
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        ingestPaths(store, [join(FIXTURES, 'control-plane', 'normal')]).then((summary) => summary.files),
        new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still waiting after 30 s'), 30_000))),
      ]);
      clearTimeout(timer);
      expect(outcome).toBeGreaterThan(0);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const analysed = await admin(async (c) =>
      (await c.query<{ relname: string }>(
        `SELECT s.relname FROM pg_stat_user_tables s WHERE s.schemaname = $1 AND s.last_analyze IS NOT NULL AND s.relname IN ('events', 'schema_version') ORDER BY 1`,
        [schema],
      )).rows.map((r) => r.relname),
    );
    expect(analysed).toEqual(['events']);
    await store.close();
  }, 60_000);

  it('ingests text holding NUL characters (which PostgreSQL text cannot hold) and keeps the raw line exact', async () => {
    const root = join(tempDir('hs-pg-nul-'), 'claude');
    const dir = join(root, 'projects', '-tmp-nul');
    mkdirSync(dir, { recursive: true });
    const id = '00000000-0000-4000-8000-00000000000a';
    const line = JSON.stringify({
      type: 'user',
      sessionId: id,
      uuid: 'u1',
      timestamp: '2026-01-01T00:00:00.000Z',
      cwd: '/tmp/nul',
      message: { role: 'user', content: 'before\u0000after quokka' },
    });
    writeFileSync(join(dir, `${id}.jsonl`), `${line}\n`);
    const store = await PostgresStore.open(withSchema(TEST_PG_URL, fresh()));
    await ingestPaths(store, [root]);
    const session = await store.getSession(id);
    expect(session?.firstUserMessage).toContain('before\uFFFDafter');
    const raw = await runTool(findTool('raw_lines')!, { session_id: id }, { store });
    expect((raw as unknown as { lines: { raw: string }[] }).lines[0]!.raw).toBe(line);
    expect((await store.searchMessages({ terms: [{ kind: 'word', text: 'quokka' }], limit: 5, offset: 0 })).total).toBe(1);
    await store.close();
  });

  it('keeps answering when the server drops its connections (admin_shutdown)', async () => {
    const store = await PostgresStore.open(withSchema(TEST_PG_URL, fresh()));
    await Promise.all([1, 2, 3].map(() => store.listSessions({ limit: 1, offset: 0 })));
    const killed = await admin((c) =>
      c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`hindsight pid ${process.pid}`]),
    );
    expect(killed.rowCount).toBeGreaterThan(0);
    expect((await store.listSessions({ limit: 1, offset: 0 })).total).toBe(0);
    expect((await store.totals()).sessions).toBe(0);
    await store.close();
  });

  it('finishes an ingest whose connections the server keeps dropping, with the same result as SQLite', async () => {
    const corpus = join(tempDir('hs-pg-drop-'), 'claude');
    generateClaudeCode(corpus, { targetBytes: 10_000_000, seed: 9 });
    const lite = new SqliteStore(join(tempDir('hs-pg-drop-'), 'h.db'));
    await ingestPaths(lite, [corpus]);
    const store = await PostgresStore.open(withSchema(TEST_PG_URL, fresh()));
    // The ingest's own progress hook drops its connections: at each of its first three reports after
    // bytes were written (a batch is in the write group's open transaction then), every connection of
    // its pool is cut, as a server restart would. Tied to the ingest's steps, not to a clock, so a
    // fast or a slow machine gets the same three drops.
    const drops: Promise<number>[] = [];
    await ingestPaths(store, [corpus], {
      onProgress: (p) => {
        if (p.bytesDone === 0 || drops.length >= 3) return;
        drops.push(
          admin((c) => c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`hindsight pid ${process.pid}`])).then(
            (r) => r.rowCount ?? 0,
          ),
        );
      },
    });
    expect(drops.length).toBe(3);
    const kills = (await Promise.all(drops)).reduce((n, k) => n + k, 0);
    expect(kills).toBeGreaterThan(0);
    const view = async (st: Store) => ({
      sessions: await st.listSessions({ limit: 500, offset: 0 }),
      files: await st.listFiles({ limit: 500, offset: 0 }),
      defects: await st.listDefects({ limit: 500, offset: 0 }),
      totals: await st.totals(),
      search: await st.searchMessages({ terms: [{ kind: 'word', text: 'the' }], limit: 50, offset: 0 }),
    });
    expect(await view(store)).toEqual(await view(lite));
    await store.close();
    await lite.close();
  });

  it('frees the ingest lock when the holding connection dies (a killed ingest leaves no stale lock)', async () => {
    const url = withSchema(TEST_PG_URL, fresh());
    const store = await PostgresStore.open(url);
    const other = await PostgresStore.open(url);
    await store.beginIngest();
    await expect(other.beginIngest()).rejects.toMatchObject({ code: 'INGEST_BUSY' });
    await admin((c) =>
      c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`hindsight ingest pid ${process.pid}`]),
    );
    const writer = await other.beginIngest({ wait: true, waitTimeoutMs: 10_000 });
    await writer.release();
    await store.close();
    await other.close();
  });
});
