// The PostgreSQL reads' round trips: statements prepared once per connection (and still answering
// after a reconnect or a migration that changes a table they read), session rows asked for together
// read in one statement, chains of reads folded into one statement each (a timeline's family, a
// session's ledgers, a ledger's counts, evidence lines, a ledger page with its lines), independent
// ones sent together, and the sync slot read in one once its table is known, or carried by a listing.

import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { dropSchema, postgresUnavailable, TEST_PG_URL, uniqueSchema, withSchema } from '../conformance/engines.js';
import { batchedLookup } from './lookup-batch.js';
import { PostgresStore } from './postgres-store.js';
import { statementsDuring } from './test-statements.js';
import { SqliteStore } from '../sqlite/sqlite-store.js';
import { tempDir } from '../../../test/helpers.js';
import { copyFixture } from '../../../test/helpers.js';
import { runTool } from '../../tools/tool.js';
import { grepJsonl } from '../../tools/grep-jsonl/index.js';
import { listSessions } from '../../tools/list-sessions/index.js';
import { queryLedgerFull } from '../../tools/query-ledger-full/index.js';
import { sessionKey, updateSyncState } from '../../sync/sync-state.js';

describe('batchedLookup', () => {
  it('fetches the keys asked for in one turn together, once each, and answers null for the missing', async () => {
    const fetched: string[][] = [];
    const load = batchedLookup(async (keys) => {
      fetched.push(keys);
      return new Map(keys.filter((k) => k !== 'gone').map((k) => [k, k.toUpperCase()]));
    });
    expect(await Promise.all([load('a'), load('b'), load('a'), load('gone')])).toEqual(['A', 'B', 'A', null]);
    expect(await load('c')).toBe('C');
    expect(fetched).toEqual([['a', 'b', 'gone'], ['c']]);
  });

  it('fails every lookup of a batch whose fetch fails, and the next batch afresh', async () => {
    let fail = true;
    const load = batchedLookup(async (keys) => {
      if (fail) throw new Error('server away');
      return new Map(keys.map((k) => [k, 1]));
    });
    const results = await Promise.allSettled([load('a'), load('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await load('a')).toBe(1);
  });
});

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('PostgreSQL read round trips', () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const s of schemas) await dropSchema(s);
  });
  const open = async (poolSize?: number) => {
    const schema = uniqueSchema('hs_prep');
    schemas.push(schema);
    return PostgresStore.open(withSchema(TEST_PG_URL, schema), { poolSize });
  };
  const admin = async (text: string, values?: unknown[]) => {
    const c = new pg.Client({ connectionString: TEST_PG_URL });
    await c.connect();
    try {
      return await c.query(text, values);
    } finally {
      await c.end();
    }
  };

  it('prepares a read once per connection, and answers alike after a reconnect and after a migration adds a column it reads', async () => {
    const store = await open(1);
    await ingestPaths(store, [join(FIXTURES, 'control-plane', 'normal')]);
    const { sessions } = await store.listSessions({ limit: 1, offset: 0 });
    const id = sessions[0]!.id;
    const before = await store.getSession(id);
    await store.getSession(id);
    // One connection in the pool: this runs on the connection that prepared the reads.
    const prepared = await store.pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
    expect(prepared.rows.length).toBeGreaterThan(0);
    expect(prepared.rows.every((r) => r.name.startsWith('hs_'))).toBe(true);

    await admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`hindsight pid ${process.pid}`]);
    expect(await store.getSession(id)).toEqual(before);

    // The read selects s.*: the server refuses its prepared form once the table has another column.
    await admin(`ALTER TABLE ${store.schema}.sessions ADD COLUMN added_later integer`);
    expect(await store.getSession(id)).toEqual(before);
    expect(await store.getSession(id)).toEqual(before);
    await store.close();
  });

  it('keeps each schema its own: the same statements on two stores read their own tables', async () => {
    const full = await open();
    const empty = await open();
    await ingestPaths(full, [join(FIXTURES, 'control-plane', 'normal')]);
    for (let i = 0; i < 3; i++) {
      expect((await full.listSessions({ limit: 5, offset: 0 })).total).toBe(12);
      expect((await empty.listSessions({ limit: 5, offset: 0 })).total).toBe(0);
    }
    await full.close();
    await empty.close();
  });

  it('reads session rows asked for together in one statement, each as getSession reads it alone', async () => {
    const store = await open();
    await ingestPaths(store, [join(FIXTURES, 'control-plane', 'normal')]);
    const ids = (await store.listSessions({ limit: 50, offset: 0 })).sessions.map((s) => s.id);
    const alone = [];
    for (const id of ids) alone.push(await store.getSession(id));
    let together: unknown[] = [];
    const texts = await statementsDuring(store, async () => {
      together = await Promise.all([...ids, 'no-such-session'].map((id) => store.getSession(id)));
    });
    expect(texts.length).toBe(1);
    expect(together).toEqual([...alone, null]);
    await store.close();
  });

  /** The Claude Code fixtures on PostgreSQL and on SQLite, and a session of theirs that has sub-agents. */
  async function bothWithFamily() {
    const store = await open();
    const lite = new SqliteStore(join(tempDir('hs-prep-'), 'h.db'));
    const corpus = join(FIXTURES, 'claude-code');
    await ingestPaths(store, [corpus]);
    await ingestPaths(lite, [corpus]);
    const all = (await lite.listSessions({ limit: 500, offset: 0 })).sessions;
    const parent = all.find((s) => all.some((c) => c.parentId === s.id))!;
    return { store, lite, parent };
  }

  it("finds a family's sessions within its timeline's statements (keys, file names, page), which reads as SQLite's", async () => {
    const { store, lite, parent } = await bothWithFamily();
    expect(parent).toBeDefined();
    const page = { offset: 0, limit: 1000, descendants: true };
    const fromLite = await lite.sessionTimeline(parent.id, page);
    expect(new Set(fromLite.events.map((e) => e.sessionId)).size).toBeGreaterThan(1);
    let fromServer;
    const texts = await statementsDuring(store, async () => {
      fromServer = await store.sessionTimeline(parent.id, page);
    });
    expect(fromServer).toEqual(fromLite);
    // No statement of its own for the family, none per session: the sort keys, the files' names, the page's rows.
    expect(texts).toHaveLength(3);
    expect(await store.sessionTimeline('no-such-session', page)).toEqual({ total: 0, events: [] });
    await lite.close();
    await store.close();
  });

  it("reads a session's ledgers (with its row or without), its descendants' rows, ledger entries and evidence lines in one statement each (the entries' page aside), as SQLite reads them", async () => {
    const { store, lite, parent } = await bothWithFamily();
    const byId = (rows: { id: string }[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
    const once = async <T>(read: () => Promise<T>, expected: T) => {
      let got: T | undefined;
      const texts = await statementsDuring(store, async () => {
        got = await read();
      });
      expect(got).toEqual(expected);
      return texts.length;
    };

    const ledgers = await lite.sessionLedgers(parent.id);
    expect(ledgers.length).toBeGreaterThan(0);
    expect(await once(() => store.sessionLedgers(parent.id), ledgers)).toBe(1);
    expect(await store.sessionLedgers('no-such-session')).toEqual([]);
    // The row with them, as getSession reads it, in the same one statement; each child's too.
    for (const s of [parent, ...(await lite.listSessions({ parentId: parent.id, limit: 500, offset: 0 })).sessions]) {
      expect(await once(() => store.sessionWithLedgers(s.id), { session: await lite.getSession(s.id), ledgers: await lite.sessionLedgers(s.id) })).toBe(1);
    }
    expect(await store.sessionWithLedgers('no-such-session')).toEqual({ session: null, ledgers: [] });

    const rows = byId(await lite.sessionDescendantRows(parent.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(await once(async () => byId(await store.sessionDescendantRows(parent.id)), rows)).toBe(1);

    // Every file of the ledger counted in one statement, then one statement for the page.
    const fileIds = ledgers.flatMap((l) => l.files.map((f) => f.fileId));
    expect(fileIds.length).toBeGreaterThan(1);
    const query = { fileIds, type: 'assistant', sessionId: parent.id, offset: 2, limit: 3 };
    const entries = await lite.ledgerEntries(query);
    expect(entries.entries.length).toBeGreaterThan(0);
    expect(await once(() => store.ledgerEntries(query), entries)).toBe(2);
    expect(await store.ledgerEntries({ ...query, sessionId: 'no-such-session' })).toEqual({ total: 0, entries: [] });

    const refs = [...entries.entries.map((e) => ({ fileId: e.fileId, lineNumber: e.lineNumber })), { fileId: fileIds[0]!, lineNumber: 1 }, { fileId: fileIds[0]!, lineNumber: 10 ** 6 }];
    const lines = await lite.evidenceLines(refs);
    expect(lines.length).toBe(refs.length - 1);
    expect(await once(() => store.evidenceLines(refs), lines)).toBe(1);
    await lite.close();
    await store.close();
  });

  it('reads a listing\'s count and its page in one statement, and the count alone past the end', async () => {
    const store = await open();
    await ingestPaths(store, [join(FIXTURES, 'control-plane', 'normal')]);
    let open_ = 0;
    let most = 0;
    const query = store.pool.query.bind(store.pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
    (store.pool as unknown as { query: typeof query }).query = (config) => {
      most = Math.max(most, ++open_);
      return query(config).finally(() => open_--);
    };
    const listed = await store.listSessions({ limit: 5, offset: 0 });
    expect(listed.total).toBe(12);
    expect(listed.sessions).toHaveLength(5);
    expect(most).toBe(1);
    expect(await statementsDuring(store, async () => expect(await store.listSessions({ limit: 5, offset: 20 })).toEqual({ total: 12, sessions: [] }))).toHaveLength(1);
    await store.close();
  });

  it('reads the sync slot in one statement: null before any sync wrote it, the state after', async () => {
    const store = await open();
    const other = await PostgresStore.open(withSchema(TEST_PG_URL, store.schema));
    expect(await statementsDuring(store, async () => expect(await store.syncState().read()).toBeNull())).toHaveLength(1);
    // Another process makes the table: this one sees it on its next read.
    await other.syncState().write('{"pushed":1}\n');
    expect(await store.syncState().read()).toBe('{"pushed":1}\n');
    expect(await statementsDuring(store, async () => expect(await store.syncState().read()).toBe('{"pushed":1}\n'))).toHaveLength(1);
    // The schema dropped under it: nothing kept, as before any sync.
    await admin(`DROP TABLE ${store.schema}.sync_state`);
    expect(await store.syncState().read()).toBeNull();
    expect(await store.syncState().read()).toBeNull();
    await store.close();
    await other.close();
  });

  it("lists sessions in one statement carrying the sync slot, and sees another process's first sync, its changes and a dropped table on the next listing", async () => {
    const store = await open();
    const other = await PostgresStore.open(withSchema(TEST_PG_URL, store.schema));
    const twin = new SqliteStore(join(tempDir('hs-prep-list-'), 'h.db'));
    const claude = copyFixture('claude-code');
    await ingestPaths(store, [claude]);
    await ingestPaths(twin, [claude]);
    type Listed = { sessions: { session_id: string; source: string }[] };
    const list = async (s: PostgresStore | SqliteStore) => (await runTool(listSessions, { limit: 5 }, { store: s })) as unknown as Listed;
    const sources = (l: Listed) => l.sessions.map((x) => x.source);
    // Never synced: one statement (it was two: the listing, and the sync table's lookup beside it).
    let listed: Listed | undefined;
    expect(await statementsDuring(store, async () => (listed = await list(store)))).toHaveLength(1);
    expect(listed).toEqual(await list(twin));
    expect(sources(listed!)).toEqual(['local', 'local', 'local', 'local', 'local']);
    const first = listed!.sessions[0]!.session_id;
    // Another process syncs for the first time (it makes the table): seen on the very next listing.
    await updateSyncState(other, 'postgres://remote/db', (r) => (r.pushed[sessionKey(first)] = 1));
    expect(sources(await list(store))[0]).toBe('both');
    // From then on the document rides on the listing: still one statement, and its changes are seen.
    expect(await statementsDuring(store, async () => (listed = await list(store)))).toHaveLength(1);
    expect(sources(listed!)[0]).toBe('both');
    await updateSyncState(other, 'postgres://remote/db', (r) => delete r.pushed[sessionKey(first)]);
    expect(sources(await list(store))[0]).toBe('local');
    // The table dropped under it (its schema made again): the listing answers, as before any sync.
    await admin(`DROP TABLE ${store.schema}.sync_state`);
    expect(await list(store)).toEqual(await list(twin));
    expect(await statementsDuring(store, () => list(store))).toHaveLength(1);
    await store.close();
    await other.close();
    await twin.close();
  });

  it("pages a session's ledger with its evidence lines in one statement after the session's row with its ledgers in another (query_ledger_full), another page beside it, as SQLite answers", async () => {
    const store = await open();
    const twin = new SqliteStore(join(tempDir('hs-prep-qlf-'), 'h.db'));
    const claude = copyFixture('claude-code');
    await ingestPaths(store, [claude]);
    await ingestPaths(twin, [claude]);
    const args = { session_id: '55604662-cf2a-4331-851a-ec234028f8ca', ledger: 'transcript', event_type: 'assistant', max_entries: 10, offset: 3 };
    const run = (s: PostgresStore | SqliteStore) => runTool(queryLedgerFull, args, { store: s });
    let got: unknown;
    // The session's row with its ledgers, then the page with its blocks. It was 4 in 3: the row and
    // the ledgers side by side, the page, then the blocks holding its lines.
    expect(await roundTripsDuring(store, async () => (got = await run(store)))).toEqual({ statements: 2, steps: 2 });
    expect(got).toMatchObject({ status: 'ok', entries: expect.arrayContaining([expect.objectContaining({ event_type: 'assistant' })]) });
    expect(got).toEqual(await run(twin));
    // Another page of the same ledger: read beside the session's row and ledgers, on the files the
    // first call resolved to (tools/ledger-read-ahead.ts), in one step instead of two.
    const next = { ...args, offset: 1 };
    expect(await roundTripsDuring(store, async () => (got = await runTool(queryLedgerFull, next, { store })))).toEqual({ statements: 2, steps: 1 });
    expect(got).toMatchObject({ status: 'ok', offset: 1, returned: expect.any(Number) });
    expect((got as { returned: number }).returned).toBeGreaterThan(0);
    expect(got).toEqual(await runTool(queryLedgerFull, next, { store: twin }));
    await store.close();
    await twin.close();
  });

  /** The statements sent while `fn` runs, and in how many steps (a step starts when none is in flight). */
  const roundTripsDuring = async (store: PostgresStore, fn: () => Promise<unknown>) => {
    let inFlight = 0;
    let steps = 0;
    let statements = 0;
    const query = store.pool.query.bind(store.pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
    (store.pool as unknown as { query: typeof query }).query = (config) => {
      if (inFlight++ === 0) steps++;
      statements++;
      return query(config).finally(() => inFlight--);
    };
    try {
      await fn();
    } finally {
      (store.pool as unknown as { query: typeof query }).query = query;
    }
    return { statements, steps };
  };

  it("greps a session's ledger by its id reading the session and its ledgers in one step, and by a prefix as SQLite does", async () => {
    const store = await open();
    const twin = new SqliteStore(join(tempDir('hs-prep-grep-'), 'h.db'));
    const claude = copyFixture('claude-code');
    await ingestPaths(store, [claude]);
    await ingestPaths(twin, [claude]);
    const id = '55604662-cf2a-4331-851a-ec234028f8ca';
    const grep = (s: PostgresStore | SqliteStore, sessionId: string) =>
      runTool(grepJsonl, { session_id: sessionId, pattern: '"type":"assistant"', read_from: 'evidence', limit: 5 }, { store: s });
    let exact: unknown;
    // The session's row with its ledgers (one statement: it was two side by side), then the blocks'
    // gram filters, then the blocks that may hold the literal, each naming its file. It was 6 in 5:
    // the row alone first, and the file's path read on its own before its first block was visited.
    expect(await roundTripsDuring(store, async () => (exact = await grep(store, id)))).toEqual({ statements: 3, steps: 3 });
    expect(exact).toMatchObject({ status: 'ok', session_id: id, count: expect.any(Number) });
    expect(exact).toEqual(await grep(twin, id));
    // A prefix: resolved as before (the exact read misses first), same answer.
    expect(await grep(store, id.slice(0, 8))).toEqual(exact);
    expect(await grep(store, 'nope-no-such-session')).toEqual(await grep(twin, 'nope-no-such-session'));
    expect(await grep(store, 'nope-no-such-session')).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
    await store.close();
    await twin.close();
  });
});
