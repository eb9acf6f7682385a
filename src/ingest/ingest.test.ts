// Pipeline behaviour: idempotence, incremental appends, held-back lines, rewrites, evidence
// after deletion, and the single-writer lock — on real fixtures in temp folders.

import { appendFileSync, readFileSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, expectSameStore, fingerprint, tempDir } from '../../test/helpers.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { findTool } from '../tools/registry.js';
import { runTool } from '../tools/tool.js';
import { ingestPaths } from './ingest.js';

const CC_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const CC_SLUG = '-home-USER-projects-spotter-worktrees-spotter-fum';

function freshStore(): SqliteStore {
  return new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

describe('ingest pipeline', () => {
  it('is idempotent: a second run reads nothing and leaves the same store', async () => {
    const root = copyFixture('control-plane/normal');
    const store = freshStore();
    const first = await ingestPaths(store, [root]);
    expect(first.files).toBe(3);
    expect(first.sessions).toBe(12);
    const before = fingerprint(store);
    const second = await ingestPaths(store, [root]);
    expect(second.filesUnchanged).toBe(3);
    expect(second.events).toBe(0);
    expect(fingerprint(store)).toBe(before);
    await store.close();
  });

  it('fills in a document whose record a crash left empty, instead of keeping an empty generation', async () => {
    const root = copyFixture('amplifier/normal');
    const rel = 'projects/-Users-jonas.weber-code-storefront-web/sessions/ffe1fc2a-7f03-488a-a918-7e4d085b8270/metadata.json';
    const clean = freshStore();
    await ingestPaths(clean, [root]);
    // The crash: a run planned metadata.json (created its record) and died before writing it.
    const crashed = freshStore();
    const writer = await crashed.beginIngest();
    const rootId = await writer.rootId(realpathSync(root), 'amplifier');
    await writer.createFile(
      { rootId, path: join(realpathSync(root), rel), relPath: rel, format: 'amplifier', ledger: 'metadata', ledgerRank: 0, sessionId: 'ffe1fc2a-7f03-488a-a918-7e4d085b8270', kind: 'document', evidenceOnly: false, chainGroup: null },
      1,
    );
    await writer.release();
    await ingestPaths(crashed, [root]);
    const files = (s: SqliteStore) => s.db.prepare('SELECT rel_path, generation, superseded, lines FROM files ORDER BY rel_path, generation').all();
    expect(files(crashed)).toEqual(files(clean));
    expectSameStore(crashed, clean);
    await clean.close();
    await crashed.close();
  });

  it('picks up appended lines and ends where one clean run ends', async () => {
    const full = copyFixture('claude-code');
    const growing = join(tempDir(), 'claude');
    mkdirSync(join(growing, 'projects', CC_SLUG), { recursive: true });
    const src = join(full, 'projects', CC_SLUG, `${CC_SESSION}.jsonl`);
    const dst = join(growing, 'projects', CC_SLUG, `${CC_SESSION}.jsonl`);
    const lines = splitLines(readFileSync(src, 'utf8'));
    writeFileSync(dst, `${lines.slice(0, 600).join('\n')}\n`);
    const incremental = freshStore();
    await ingestPaths(incremental, [growing]);
    appendFileSync(dst, `${lines.slice(600, 1100).join('\n')}\n`);
    const mid = await ingestPaths(incremental, [growing]);
    expect(mid.lines).toBe(500);
    appendFileSync(dst, `${lines.slice(1100).join('\n')}\n`);
    await ingestPaths(incremental, [growing]);

    const clean = freshStore();
    const onlyMain = join(tempDir(), 'claude');
    mkdirSync(join(onlyMain, 'projects', CC_SLUG), { recursive: true });
    writeFileSync(join(onlyMain, 'projects', CC_SLUG, `${CC_SESSION}.jsonl`), readFileSync(src));
    await ingestPaths(clean, [onlyMain]);
    expectSameStore(incremental, clean);
    await incremental.close();
    await clean.close();
  });

  it('holds back an incomplete last line, reports it, and turns it into an event once complete', async () => {
    const root = tempDir();
    const dir = join(root, 'projects', '-tmp-p');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'aaaaaaaa-0000-4000-8000-000000000001.jsonl');
    const line = (n: number) =>
      JSON.stringify({
        type: 'user',
        uuid: `u${n}`,
        parentUuid: n > 1 ? `u${n - 1}` : null,
        sessionId: 'aaaaaaaa-0000-4000-8000-000000000001',
        timestamp: `2026-01-01T00:00:0${n}.000Z`,
        cwd: '/tmp/p',
        message: { role: 'user', content: `prompt ${n}` },
      });
    const third = line(3);
    writeFileSync(file, `${line(1)}\n${line(2)}\n${third.slice(0, 40)}`);
    const store = freshStore();
    await ingestPaths(store, [root]);
    const defects = await store.listDefects({ kind: 'incomplete_last_line', limit: 10, offset: 0 });
    expect(defects.defects.map((d) => [d.file, d.line])).toEqual([['projects/-tmp-p/aaaaaaaa-0000-4000-8000-000000000001.jsonl', 3]]);
    let s = await store.getSession('aaaaaaaa-0000-4000-8000-000000000001');
    expect(s?.turnCount).toBe(2);
    appendFileSync(file, `${third.slice(40)}\n`);
    await ingestPaths(store, [root]);
    s = await store.getSession('aaaaaaaa-0000-4000-8000-000000000001');
    expect(s?.turnCount).toBe(3);
    expect((await store.listDefects({ kind: 'incomplete_last_line', limit: 10, offset: 0 })).total).toBe(0);
    const raw = await runTool(findTool('raw_lines')!, { session_id: 'aaaaaaaa-0000-4000-8000-000000000001' }, { store });
    expect((raw as unknown as { lines: { raw: string }[] }).lines.map((l) => l.raw)).toEqual([line(1), line(2), third]);
    await store.close();
  });

  it('detects a rewritten source, re-reads it, and keeps the earlier lines as an older generation', async () => {
    const root = tempDir();
    const dir = join(root, 'projects', '-tmp-p');
    mkdirSync(dir, { recursive: true });
    const id = 'bbbbbbbb-0000-4000-8000-000000000002';
    const file = join(dir, `${id}.jsonl`);
    const line = (n: number, text: string) =>
      JSON.stringify({ type: 'user', uuid: `u${n}`, sessionId: id, timestamp: `2026-01-01T00:00:0${n}.000Z`, message: { role: 'user', content: text } });
    const original = `${line(1, 'first version')}\n${line(2, 'second prompt')}\n`;
    writeFileSync(file, original);
    const store = freshStore();
    await ingestPaths(store, [root]);
    writeFileSync(file, `${line(1, 'rewound history')}\n`);
    const again = await ingestPaths(store, [root]);
    expect(again.rewrites).toBe(1);
    const rewrites = await store.listDefects({ kind: 'rewritten_source', limit: 10, offset: 0 });
    expect(rewrites.total).toBe(1);
    const s = await store.getSession(id);
    expect(s?.turnCount).toBe(1);
    expect(s?.firstUserMessage).toBe('rewound history');
    const old = (await runTool(findTool('raw_lines')!, { session_id: id, generation: 1 }, { store })) as unknown as { lines: { raw: string }[] };
    expect(old.lines.map((l) => l.raw).join('\n') + '\n').toBe(original);
    await store.close();
  });

  it('keeps every line byte for byte after the source is deleted', async () => {
    const root = copyFixture('control-plane/edge');
    const store = freshStore();
    await ingestPaths(store, [root]);
    const original = readFileSync(join(root, 'HO2/ledger/ho2m.jsonl'));
    rmSync(root, { recursive: true });
    const res = (await runTool(
      findTool('raw_lines')!,
      { session_id: 'SES-AB82C1E0', ledger: 'ho2m', limit: 2000, max_bytes: 10_000_000 },
      { store },
    )) as unknown as { lines: { file: string; raw: string; raw_base64?: string }[] };
    const active = res.lines.filter((l) => l.file === 'HO2/ledger/ho2m.jsonl').map((l) => l.raw);
    // The active file has no trailing newline: its lines joined with '\n' are the file.
    expect(Buffer.from(active.join('\n'), 'utf8').equals(original)).toBe(true);
    await store.close();
  });

  it('follows a rotation: the renamed active file keeps its record, nothing is reported as rewritten', async () => {
    const final = copyFixture('control-plane/edge');
    // Before rotation the segments' content was the active file of each ledger.
    const before = join(tempDir(), 'plane');
    const segments: [string, string][] = [
      ['HO1/ledger', 'ho1m-20260214-200232.jsonl'],
      ['HO2/ledger', 'ho2m-20260214-200318.jsonl'],
      ['HOT/ledger', 'governance-20260214-200318.jsonl'],
    ];
    for (const [dir, name] of segments) {
      mkdirSync(join(before, dir), { recursive: true });
      writeFileSync(join(before, dir, `${name.split('-')[0]}.jsonl`), readFileSync(join(final, dir, name)));
    }
    const store = freshStore();
    await ingestPaths(store, [before]);
    // Rotate: rename each active file to its segment name and start the new active file.
    const { renameSync } = await import('node:fs');
    for (const [dir, name] of segments) {
      renameSync(join(before, dir, `${name.split('-')[0]}.jsonl`), join(before, dir, name));
      writeFileSync(join(before, dir, `${name.split('-')[0]}.jsonl`), readFileSync(join(final, dir, `${name.split('-')[0]}.jsonl`)));
    }
    const after = await ingestPaths(store, [before]);
    expect(after.rewrites).toBe(0);
    const rotated = await store.listDefects({ kind: 'rotated', limit: 10, offset: 0 });
    expect(rotated.defects.map((d) => d.file).sort()).toEqual(segments.map(([d, n]) => `${d}/${n}`).sort());
    expect((await store.listDefects({ kind: 'rewritten_source', limit: 10, offset: 0 })).total).toBe(0);
    // No false chain break at the rotation point, and the same sessions as a clean ingest.
    const breaks = await store.listDefects({ kind: 'previous_hash_mismatch', limit: 10, offset: 0 });
    const clean = freshStore();
    await ingestPaths(clean, [final]);
    const cleanBreaks = await clean.listDefects({ kind: 'previous_hash_mismatch', limit: 10, offset: 0 });
    expect(breaks.defects.map((d) => [d.file, d.line])).toEqual(cleanBreaks.defects.map((d) => [d.file, d.line]));
    const summary = async (st: SqliteStore) =>
      (await st.listSessions({ limit: 50, offset: 0 })).sessions.map((x) => [x.id, x.status, x.turnCount, x.eventCount, x.tokensTotal]);
    expect(await summary(store)).toEqual(await summary(clean));
    await store.close();
    await clean.close();
  });

  it('lets only one ingest write at a time', async () => {
    const root = copyFixture('control-plane/normal');
    const store = freshStore();
    const writer = await store.beginIngest();
    await expect(ingestPaths(store, [root])).rejects.toThrow(/Another hindsight ingest \(pid \d+\)/);
    await writer.release();
    const ok = await ingestPaths(store, [root]);
    expect(ok.sessions).toBe(12);
    await store.close();
  });
});
