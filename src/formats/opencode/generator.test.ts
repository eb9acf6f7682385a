// The corpus generator (bench/generators/opencode.ts) writes what OpenCode writes: its tables,
// row JSON without the ids the columns hold, pretty-printed storage/ documents with them, the
// same bytes for the same seed, and as many bytes as asked.

import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHome } from './test-home.js';

const rows = (home: string) => {
  const db = new Database(join(home, 'opencode.db'), { readonly: true });
  const all = db.prepare('SELECT id, data FROM message UNION ALL SELECT id, data FROM part ORDER BY id').all();
  db.close();
  return all as { id: string; data: string }[];
};

describe('generateOpenCode', () => {
  it("creates OpenCode's tables, with row JSON shaped as OpenCode stores it", () => {
    const { home, stats } = makeHome({ seed: 31, sessions: 3 });
    const db = new Database(join(home, 'opencode.db'), { readonly: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]);
    expect(tables).toEqual(['account', 'control_account', 'credential', 'message', 'part', 'project', 'session', 'session_share', 'todo']);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const message = JSON.parse((db.prepare("SELECT data FROM message WHERE data LIKE '%assistant%' LIMIT 1").pluck().get() as string)) as Record<string, unknown>;
    expect(Object.keys(message)).not.toContain('id');
    expect(Object.keys(message)).not.toContain('sessionID');
    expect(message).toMatchObject({ role: 'assistant', tokens: { input: expect.any(Number), cache: { read: expect.any(Number) } } });
    expect(db.prepare('SELECT count(*) FROM session').pluck().get()).toBe(stats.sessions + stats.subagents);
    db.close();
  });

  it('writes pre-1.0 documents pretty-printed, with their ids inside', () => {
    const { home } = makeHome({ seed: 31, sessions: 1, layout: 'storage' });
    const project = readdirSync(join(home, 'storage', 'session'))[0]!;
    const file = readdirSync(join(home, 'storage', 'session', project))[0]!;
    const text = readFileSync(join(home, 'storage', 'session', project, file), 'utf8');
    expect(text.startsWith(`{\n  "id": "${file.replace('.json', '')}",\n`)).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ projectID: project, directory: expect.stringMatching(/^\//) });
  });

  it('is the same for the same seed, different for another, and stops at the bytes asked for', () => {
    const a = makeHome({ seed: 32, sessions: 2 });
    const b = makeHome({ seed: 32, sessions: 2 });
    const c = makeHome({ seed: 33, sessions: 2 });
    expect(rows(a.home)).toEqual(rows(b.home));
    expect(rows(a.home)).not.toEqual(rows(c.home));
    const big = makeHome({ seed: 34, sessions: undefined, targetBytes: 400_000 });
    expect(big.stats.bytes).toBeGreaterThanOrEqual(400_000);
    expect(big.stats.bytes).toBeLessThan(600_000);
  });
});
