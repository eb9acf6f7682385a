// The database as a source: credential tables never read, the database left as it was, reads
// while OpenCode writes, rows updated later (a message finishing) counted once, unchanged sessions
// not read again, and an unreadable database reported instead of failing the ingest.

import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestPaths } from '../../ingest/ingest.js';
import { ccusage, ingested, makeHome, tool } from './test-home.js';

type Obj = Record<string, any>;
const SECRET = 'sk-ant-oc-7Qx9LmZ2pR4vW8yB1nC6dF3hJ5kT0sU';

const digest = (path: string) => (existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : null);

/** The streaming session: its last assistant message has no `time.completed` yet. */
function streaming(db: Database.Database): { session: string; message: string; data: Obj } {
  const rows = db.prepare("SELECT id, session_id, data FROM message WHERE json_extract(data, '$.role') = 'assistant'").all() as Obj[];
  const row = rows.find((r) => JSON.parse(r.data).time.completed === undefined && !JSON.parse(r.data).error)!;
  return { session: row.session_id, message: row.id, data: JSON.parse(row.data) };
}

describe('opencode.db as a source', () => {
  it('never reads the credential tables: no secret reaches the store', async () => {
    const { home } = makeHome({ seed: 3, secret: SECRET });
    const probe = new Database(join(home, 'opencode.db'), { readonly: true });
    for (const table of ['account', 'control_account', 'credential', 'session_share']) {
      expect(JSON.stringify(probe.prepare(`SELECT * FROM ${table}`).all())).toContain(SECRET);
    }
    probe.close();
    const { store, db } = await ingested([home]);
    // grep reads every line of evidence decompressed: the rows are there, the secret is not.
    expect((await tool(store, 'grep_jsonl', { pattern: '"table":"part"', scope: 'all', limit: 1 })).count).toBeGreaterThan(50);
    expect((await tool(store, 'grep_jsonl', { pattern: SECRET.slice(3, 20), scope: 'all' })).count).toBe(0);
    expect((await tool(store, 'grep_jsonl', { pattern: 'opncd\\.ai/s/', scope: 'all' })).count).toBe(0); // share links
    await store.close();
    // Nor anywhere else in the store (events, summaries, search index, defects).
    for (const file of [db, `${db}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(SECRET.slice(3, 20)))).toBe(false);
    }
  });

  it('leaves the database byte for byte as it was (a reader only adds the empty write-ahead log SQLite needs)', async () => {
    const { home } = makeHome({ seed: 4 });
    const wal = join(home, 'opencode.db-wal');
    const before = digest(join(home, 'opencode.db'));
    expect(existsSync(wal)).toBe(false); // OpenCode closed cleanly: everything is in the database file
    await ingested([home]);
    expect(digest(join(home, 'opencode.db'))).toBe(before);
    if (existsSync(wal)) expect(readFileSync(wal).length).toBe(0);
  });

  it('reads while OpenCode holds a write transaction, and picks the row up once committed', async () => {
    const { home } = makeHome({ seed: 6 });
    const writer = new Database(join(home, 'opencode.db'));
    const { session, message, data } = streaming(writer);
    const finished = { ...data, time: { ...data.time, completed: data.time.created + 5_000 }, finish: 'stop', tokens: { input: 1_000, output: 900, reasoning: 0, cache: { read: 5_000, write: 0 } } };
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare('UPDATE message SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(finished), data.time.created + 5_000, message);
    const { store } = await ingested([home]); // not blocked by the open transaction, and does not see it
    const during = (await tool(store, 'list_sessions', { limit: 100, top_level_only: false })).sessions.find((s: Obj) => s.session_id === session);
    expect(during.status).not.toBe('completed');
    writer.exec('COMMIT');
    writer.close();
    const again = await ingestPaths(store, [home], { format: 'opencode' });
    expect(again.filesRead).toBe(1); // only that session's messages changed
    const after = (await tool(store, 'list_sessions', { limit: 100, top_level_only: false })).sessions.find((s: Obj) => s.session_id === session);
    expect(after.status).toBe('completed');
  });

  it('counts a message once when OpenCode updates it after an ingest (it streams), and keeps the earlier rows as evidence', async () => {
    const { home } = makeHome({ seed: 8 });
    const { store } = await ingested([home]);
    const writer = new Database(join(home, 'opencode.db'));
    const { session, message, data } = streaming(writer);
    const tokens = { total: 12_345, input: 2_000, output: 345, reasoning: 0, cache: { read: 10_000, write: 0 } };
    const done = { ...data, time: { ...data.time, completed: data.time.created + 9_000 }, finish: 'stop', tokens };
    writer.prepare('UPDATE message SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(done), data.time.created + 9_000, message);
    writer.close();
    const second = await ingestPaths(store, [home], { format: 'opencode' });
    expect(second.filesRead).toBe(1);
    const theirs = ccusage(home, 'session').find((r) => r.sessionId === session)!;
    const ours = (await tool(store, 'usage_report', { group_by: 'session', limit: 500 })).rows.find((r: Obj) => r.session_id === session);
    expect(ours.tokens).toMatchObject({ input: theirs.inputTokens, cache_read: theirs.cacheReadTokens, total: theirs.totalTokens });
    const raw = await tool(store, 'raw_lines', { session_id: session, ledger: 'messages', generation: 1, limit: 500 });
    expect(JSON.stringify(raw)).toContain(message); // the row as first read, kept as generation 1
    const sources = await tool(store, 'sources', {});
    expect(JSON.stringify(sources)).not.toContain('rewritten_source');
  });

  it('skips sessions whose rows did not change without reading them', async () => {
    const { home } = makeHome({ seed: 9 });
    const { store } = await ingested([home]);
    const again = await ingestPaths(store, [home], { format: 'opencode' });
    expect(again.filesRead).toBe(0);
    expect(again.filesUnchanged).toBe(again.files);
    expect(again.events).toBe(0);
  });

  it('reports a database it cannot read and ingests the rest of the folder', async () => {
    const { home } = makeHome({ seed: 10, layout: 'storage' });
    writeFileSync(join(home, 'opencode.db'), 'this is not a database');
    const { store } = await ingested([home]);
    const sessions = (await tool(store, 'list_sessions', { limit: 100 })).sessions as Obj[];
    expect(sessions.length).toBeGreaterThan(0);
    const sources = JSON.stringify(await tool(store, 'sources', {}));
    expect(sources).toContain('unreadable_database');
  });
});
