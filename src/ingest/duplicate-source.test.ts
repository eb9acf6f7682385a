// The same sessions under two roots (a copied Claude Code config folder, a copied plane root) are
// counted once: the copy is kept as evidence only and reported as `duplicate_source`.

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../test/helpers.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { findTool } from '../tools/registry.js';
import { runTool } from '../tools/tool.js';
import { ingestPaths } from './ingest.js';

const CC_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const CC_FILE = `projects/-home-USER-projects-spotter-worktrees-spotter-fum/${CC_SESSION}.jsonl`;

function freshStore(): SqliteStore {
  return new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
}

async function tool(store: SqliteStore, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await runTool(findTool(name)!, args, { store })) as unknown as Record<string, unknown>;
}

/** What must not change when a copy of the data is ingested too: sessions, usage, totals. */
async function counts(store: SqliteStore) {
  const list = await tool(store, 'list_sessions', { limit: 500, top_level_only: false });
  const sessions = (list.sessions as Record<string, unknown>[]).map((s) => {
    const { root: _root, ...rest } = s;
    return rest;
  });
  const usage = await tool(store, 'usage_report', { group_by: 'session', limit: 500 });
  expect([list.status, usage.status]).toEqual(['ok', 'ok']);
  const totals = await store.totals();
  return { count: list.count, sessions, usage: [usage.totals, usage.rows], events: totals.events, sessionsTotal: totals.sessions };
}

function copyOf(root: string): string {
  const copy = join(tempDir('hs-copy-'), 'second');
  cpSync(root, copy, { recursive: true, preserveTimestamps: true });
  return copy;
}

describe('the same sessions under two roots', () => {
  it('counts a copied Claude Code config folder once, in one run or two, and says so', async () => {
    const root = copyFixture('claude-code');
    const copy = copyOf(root);
    const once = freshStore();
    await ingestPaths(once, [root]);
    const expected = await counts(once);
    expect(expected.events).toBeGreaterThan(0);
    expect((expected.usage[0] as { total_tokens?: number; tokens?: { total: number } }).tokens?.total).toBeGreaterThan(0);

    const together = freshStore();
    await ingestPaths(together, [root, copy]);
    expect(await counts(together)).toEqual(expected);

    const apart = freshStore();
    await ingestPaths(apart, [root]);
    await ingestPaths(apart, [copy]);
    expect(await counts(apart)).toEqual(expected);
    // A third run changes nothing.
    const again = await ingestPaths(apart, [root, copy]);
    expect(again.events).toBe(0);
    expect(await counts(apart)).toEqual(expected);

    const found = await tool(apart, 'sources', { kind: 'duplicate_source', limit: 100 });
    const rows = found.defects as { file: string; severity: string; session_id: string | null; message: string }[];
    expect(rows.length).toBeGreaterThan(0);
    const main = rows.find((d) => d.file === CC_FILE)!;
    expect(main).toMatchObject({ severity: 'warning', session_id: CC_SESSION });
    expect(main.message).toContain(`${root}/${CC_FILE}`);
    // The copy's lines are kept: its evidence is the same bytes.
    const copyStored = apart.db.prepare('SELECT lines, evidence_only, session_id FROM files WHERE path = ?').get(join(copy, CC_FILE));
    expect(copyStored).toMatchObject({ evidence_only: 1, session_id: null });
    await once.close();
    await together.close();
    await apart.close();
  });

  it('reads the copy that is ahead, and keeps the older one as the duplicate', async () => {
    const root = copyFixture('claude-code');
    const stale = copyOf(root);
    const path = join(root, CC_FILE);
    const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
    // The stale copy stops 100 lines early; the live root has everything.
    writeFileSync(join(stale, CC_FILE), `${lines.slice(0, lines.length - 100).join('\n')}\n`);
    const expectedStore = freshStore();
    await ingestPaths(expectedStore, [root]);
    const expected = await counts(expectedStore);

    const store = freshStore();
    await ingestPaths(store, [stale]);
    await ingestPaths(store, [root]);
    expect(await counts(store)).toEqual(expected);
    const dup = store.db.prepare('SELECT evidence_only FROM files WHERE path = ?').get(join(stale, CC_FILE));
    expect(dup).toEqual({ evidence_only: 1 });
    await expectedStore.close();
    await store.close();
  });

  it('counts a copied plane root once', async () => {
    const root = copyFixture('control-plane/normal');
    const copy = copyOf(root);
    const once = freshStore();
    await ingestPaths(once, [root]);
    const expected = await counts(once);
    const both = freshStore();
    await ingestPaths(both, [root, copy]);
    expect(await counts(both)).toEqual(expected);
    expect((await both.listDefects({ kind: 'duplicate_source', limit: 10, offset: 0 })).total).toBe(3);
    await once.close();
    await both.close();
  });

  it('counts a copied Amplifier folder once', async () => {
    const root = copyFixture('amplifier/normal');
    const copy = copyOf(root);
    const once = freshStore();
    await ingestPaths(once, [root]);
    const expected = await counts(once);
    const both = freshStore();
    await ingestPaths(both, [copy, root]);
    expect(await counts(both)).toEqual(expected);
    await once.close();
    await both.close();
  });

  it('does not hide a file of the same session whose bytes differ from the other root', async () => {
    const root = copyFixture('claude-code');
    const copy = copyOf(root);
    const other = join(copy, CC_FILE);
    writeFileSync(other, readFileSync(other, 'utf8').replace(/"cwd":"[^"]*"/, '"cwd":"/elsewhere"'));
    const store = freshStore();
    await ingestPaths(store, [root, copy]);
    // The first bytes differ: not a copy, so nothing is hidden (the session's lines are read twice).
    expect((await store.listDefects({ kind: 'duplicate_source', limit: 50, offset: 0 })).defects.map((d) => d.file)).not.toContain(CC_FILE);
    await store.close();
  });
});
