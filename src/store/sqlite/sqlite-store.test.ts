// The SQLite engine itself: migrations, pragmas, default path, search index, schema guard.

import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { defaultDbPath } from '../open.js';
import { MIGRATIONS } from './migrations.js';
import { SqliteStore } from './sqlite-store.js';

describe('SQLite store', () => {
  it('creates the schema once, in WAL mode, and reopens without re-migrating', async () => {
    const path = join(tempDir('hs-store-'), 'nested', 'h.db');
    const first = new SqliteStore(path);
    expect(first.db.pragma('journal_mode', { simple: true })).toBe('wal');
    await first.close();
    const again = new SqliteStore(path);
    const versions = again.db.prepare('SELECT version FROM schema_version').all() as { version: number }[];
    expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((m) => m.version));
    await again.close();
  });

  it('reads the session columns of a usage report from an index, not the wide sessions table', async () => {
    const store = new SqliteStore(join(tempDir('hs-store-'), 'h.db'));
    try {
      // The statement core/usage-calls.ts runs for every usage report (readUsageSessions).
      const plan = store.db.prepare('EXPLAIN QUERY PLAN SELECT sid, id, parent_id, project, project_path, format FROM sessions').all() as { detail: string }[];
      expect(plan.map((p) => p.detail)).toEqual(['SCAN sessions USING COVERING INDEX sessions_usage']);
    } finally {
      await store.close();
    }
  });

  it('releases the ingest lock when the writer cannot be made', async () => {
    const path = join(tempDir('hs-store-'), 'h.db');
    const broken = new SqliteStore(path);
    broken.db.close();
    await expect(broken.beginIngest({ wait: false })).rejects.toThrow(/not open/);
    const next = new SqliteStore(path);
    const writer = await next.beginIngest({ wait: false });
    await writer.release();
    await next.close();
  });

  it('upgrades a store of an earlier schema in place', async () => {
    const path = join(tempDir('hs-store-'), 'h.db');
    const raw = new Database(path);
    raw.exec('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
    raw.exec(MIGRATIONS[0]!.sql);
    raw.prepare("INSERT INTO schema_version VALUES (1, 'v1', '')").run();
    raw.close();
    const store = new SqliteStore(path);
    const indexes = (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'").all() as { name: string }[]).map((r) => r.name);
    expect(indexes).toContain('events_file_line_type');
    expect(indexes).not.toContain('events_file_line');
    await store.close();
  });

  it('refuses a store written by a newer schema', () => {
    const path = join(tempDir('hs-store-'), 'h.db');
    new SqliteStore(path).db.close();
    const raw = new Database(path);
    raw.prepare("INSERT INTO schema_version (version, description, applied_at) VALUES (999, 'future', '')").run();
    raw.close();
    expect(() => new SqliteStore(path)).toThrow(/newer Hindsight \(schema 999/);
  });

  it('indexes message text for search (FTS5)', async () => {
    const store = new SqliteStore(join(tempDir('hs-store-'), 'h.db'));
    await ingestPaths(store, [copyFixture('claude-code')]);
    const hits = store.db
      .prepare(
        `SELECT s.id FROM message_fts JOIN events e ON e.id = message_fts.rowid JOIN sessions s ON s.sid = e.sid
         WHERE message_fts MATCH ? GROUP BY s.id`,
      )
      .all('"phx.server"') as { id: string }[];
    expect(hits.map((h) => h.id)).toContain('55604662-cf2a-4331-851a-ec234028f8ca');
    await store.close();
  });

  it('chooses the database path: HINDSIGHT_DB, else XDG_DATA_HOME, else ~/.local/share', () => {
    expect(defaultDbPath({ HINDSIGHT_DB: '/tmp/x.db' })).toBe('/tmp/x.db');
    expect(defaultDbPath({ XDG_DATA_HOME: '/data' })).toBe('/data/hindsight/hindsight.db');
    expect(defaultDbPath({})).toMatch(/\.local\/share\/hindsight\/hindsight\.db$/);
  });
});
