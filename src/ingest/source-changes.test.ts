// How a source that changed since the last ingest is read again: a same-size edit anywhere in the
// file is a rewrite (both generations kept), and appends find the same duplicate lines as one run.

import { appendFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { findTool } from '../tools/registry.js';
import { runTool } from '../tools/tool.js';
import { ingestPaths } from './ingest.js';

const SID = 'dddddddd-0000-4000-8000-000000000004';

function userLine(n: number, text = `prompt number ${n}`): string {
  return JSON.stringify({
    type: 'user',
    uuid: `u${n}`,
    parentUuid: n > 1 ? `u${n - 1}` : null,
    sessionId: SID,
    timestamp: `2026-03-01T10:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`,
    cwd: '/tmp/changes',
    message: { role: 'user', content: text },
  });
}

function claudeRoot(content: string): { root: string; path: string } {
  const root = tempDir('hs-changes-');
  const dir = join(root, 'projects', '-tmp-changes');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${SID}.jsonl`);
  writeFileSync(path, content);
  return { root, path };
}

function freshStore(): SqliteStore {
  return new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
}

async function rawLines(store: SqliteStore, args: Record<string, unknown>): Promise<string[]> {
  const res = (await runTool(findTool('raw_lines')!, { session_id: SID, limit: 500, ...args }, { store })) as unknown as {
    lines: { raw: string }[];
  };
  return res.lines.map((l) => l.raw);
}

describe('a source that changed since the last ingest', () => {
  it('catches a same-size edit in the middle of the file and keeps both versions', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => userLine(i + 1));
    const original = `${lines.join('\n')}\n`;
    const { root, path } = claudeRoot(original);
    const store = freshStore();
    await ingestPaths(store, [root]);
    // Same length, different bytes, on line 20 of 40: neither the first nor the last line moves.
    const edited = original.replace('prompt number 20', 'prompt number XX');
    expect(edited.length).toBe(original.length);
    writeFileSync(path, edited);
    const later = new Date(Date.now() + 5_000);
    utimesSync(path, later, later);

    const again = await ingestPaths(store, [root]);
    expect(again.rewrites).toBe(1);
    const found = await store.listDefects({ kind: 'rewritten_source', limit: 10, offset: 0 });
    expect(found.defects.map((d) => [d.severity, d.file])).toEqual([['warning', `projects/-tmp-changes/${SID}.jsonl`]]);
    expect(found.defects[0]!.message).toContain('line 20');
    // Generation 1 is the original, byte for byte; the live generation is what the file holds now.
    expect(`${(await rawLines(store, { generation: 1 })).join('\n')}\n`).toBe(original);
    expect(`${(await rawLines(store, {})).join('\n')}\n`).toBe(edited);
    expect(`${(await rawLines(store, {})).join('\n')}\n`).toBe(readFileSync(path, 'utf8'));
    // Counted once: the old generation's events are retired.
    expect((await store.getSession(SID))?.turnCount).toBe(40);
    await store.close();
  });

  it('reads an untouched prefix as intact: an append is not a rewrite', async () => {
    const { root, path } = claudeRoot(`${[1, 2, 3].map((n) => userLine(n)).join('\n')}\n`);
    const store = freshStore();
    await ingestPaths(store, [root]);
    appendFileSync(path, `${userLine(4)}\n`);
    const again = await ingestPaths(store, [root]);
    expect(again.rewrites).toBe(0);
    expect(again.lines).toBe(1);
    await store.close();
  });

  it('reports the same duplicate_line findings whether the lines arrive in two appends or at once', async () => {
    const a = userLine(1);
    const b = userLine(2);
    const c = userLine(3);
    // Line 4 repeats line 1 (before the split), line 6 repeats line 4's bytes again, line 5 repeats 3.
    const firstPart = `${a}\n${b}\n${c}\n`;
    const secondPart = `${a}\n${c}\n${a}\n${userLine(7)}\n`;
    const findings = async (store: SqliteStore) =>
      (await store.listDefects({ kind: 'duplicate_line', limit: 50, offset: 0 })).defects.map((d) => [d.line, d.message]);

    const once = claudeRoot(firstPart + secondPart);
    const oneShot = freshStore();
    await ingestPaths(oneShot, [once.root]);

    const twice = claudeRoot(firstPart);
    const incremental = freshStore();
    await ingestPaths(incremental, [twice.root]);
    appendFileSync(twice.path, secondPart);
    await ingestPaths(incremental, [twice.root]);

    expect(await findings(oneShot)).toEqual([
      [4, 'same bytes as line 1 (kept; a writer repeated itself or a file was concatenated)'],
      [5, 'same bytes as line 3 (kept; a writer repeated itself or a file was concatenated)'],
      [6, 'same bytes as line 1 (kept; a writer repeated itself or a file was concatenated)'],
    ]);
    expect(await findings(incremental)).toEqual(await findings(oneShot));
    await oneShot.close();
    await incremental.close();
  });
});
