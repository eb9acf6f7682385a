// The bad-input list of the foundation issue: each case imports, the defect is reported with its
// file and line, and every valid line around it is kept.

import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { findTool } from '../tools/registry.js';
import { runTool } from '../tools/tool.js';
import { claudeCode } from '../formats/claude-code/index.js';
import { ingestPaths } from './ingest.js';
import { ingestFile } from './ingest-file.js';

const SID = 'cccccccc-0000-4000-8000-000000000003';
const SLUG = '-tmp-bad';

function userLine(n: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'user',
    uuid: `u${n}`,
    parentUuid: n > 1 ? `u${n - 1}` : null,
    sessionId: SID,
    timestamp: `2026-03-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
    cwd: '/tmp/bad',
    message: { role: 'user', content: `prompt number ${n}` },
    ...extra,
  });
}

/** A Claude Code config folder with one session file holding `content`. */
function claudeRoot(content: string | Buffer, file = `${SID}.jsonl`): { root: string; path: string; rel: string } {
  const root = tempDir('hs-bad-');
  const dir = join(root, 'projects', SLUG);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, content);
  return { root, path, rel: `projects/${SLUG}/${file}` };
}

async function ingest(root: string) {
  const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  const summary = await ingestPaths(store, [root]);
  const { defects } = await store.listDefects({ limit: 500, offset: 0 });
  return { store, summary, defects };
}

describe('bad input is data', () => {
  it('reports a malformed JSON line and keeps the lines around it', async () => {
    const { root, rel } = claudeRoot(`${userLine(1)}\n{"type": "user", oops\n${userLine(3)}\n`);
    const { store, summary, defects } = await ingest(root);
    expect(defects.filter((d) => d.kind === 'malformed_json').map((d) => [d.file, d.line, d.severity])).toEqual([[rel, 2, 'error']]);
    expect(summary.badLines).toBe(1);
    expect((await store.getSession(SID))?.turnCount).toBe(2);
    await store.close();
  });

  it('reports blank and whitespace-only lines as warnings, not bad lines', async () => {
    const { root, rel } = claudeRoot(`${userLine(1)}\n\n \t \n${userLine(4)}\n`);
    const { store, summary, defects } = await ingest(root);
    const found = defects.filter((d) => d.kind.endsWith('line')).map((d) => [d.kind, d.file, d.line, d.severity]);
    expect(found).toEqual([
      ['blank_line', rel, 2, 'warning'],
      ['whitespace_only_line', rel, 3, 'warning'],
    ]);
    expect(summary.badLines).toBe(0);
    expect((await store.getSession(SID))?.turnCount).toBe(2);
    await store.close();
  });

  it('reports a non-object JSON line', async () => {
    const { root, rel } = claudeRoot(`${userLine(1)}\n[1, 2]\n"text"\n${userLine(4)}\n`);
    const { store, defects } = await ingest(root);
    expect(defects.filter((d) => d.kind === 'non_object_json').map((d) => [d.file, d.line])).toEqual([
      [rel, 2],
      [rel, 3],
    ]);
    expect((await store.getSession(SID))?.turnCount).toBe(2);
    await store.close();
  });

  it('reports invalid UTF-8 and keeps the exact bytes as evidence', async () => {
    const bad = Buffer.concat([Buffer.from(userLine(2).slice(0, -3)), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const content = Buffer.concat([Buffer.from(`${userLine(1)}\n`), bad, Buffer.from(`\n${userLine(3)}\n`)]);
    const { root, rel } = claudeRoot(content);
    const { store, defects } = await ingest(root);
    const d = defects.find((x) => x.kind === 'invalid_utf8');
    expect([d?.file, d?.line]).toEqual([rel, 2]);
    const res = (await runTool(findTool('raw_lines')!, { session_id: SID, from_line: 2, limit: 1 }, { store })) as unknown as {
      lines: { raw_base64?: string }[];
    };
    expect(Buffer.from(res.lines[0]!.raw_base64!, 'base64').equals(bad)).toBe(true);
    await store.close();
  });

  it('handles a single 60 MB line without parsing it whole', async () => {
    const huge = JSON.stringify({
      type: 'user',
      uuid: 'u2',
      parentUuid: 'u1',
      sessionId: SID,
      timestamp: '2026-03-01T10:00:02.000Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(60 * 1024 * 1024) }] },
    });
    const { root, rel } = claudeRoot(`${userLine(1)}\n${huge}\n${userLine(3)}\n`);
    const { store, defects } = await ingest(root);
    const d = defects.find((x) => x.kind === 'oversized_line');
    expect([d?.file, d?.line, d?.severity]).toEqual([rel, 2, 'info']);
    const res = (await runTool(findTool('raw_lines')!, { session_id: SID, from_line: 2, limit: 1, max_bytes: 10_000_000 }, { store })) as unknown as {
      lines: unknown[];
      truncated?: boolean;
    };
    expect(res.truncated).toBe(true); // bounded: a 60 MB line never leaves the tool whole
    const row = (await store.rawLines([1], 2, 1))[0]!;
    expect(row.raw.length).toBe(Buffer.byteLength(huge));
    expect((await store.getSession(SID))?.turnCount).toBe(2);
    await store.close();
  });

  it('reports missing and unparsable timestamps and places those events after the line before', async () => {
    const noTs = JSON.parse(userLine(2)) as Record<string, unknown>;
    delete noTs.timestamp;
    const { root, rel } = claudeRoot(`${userLine(1)}\n${JSON.stringify(noTs)}\n${userLine(3, { timestamp: 'yesterday' })}\n`);
    const { store, defects } = await ingest(root);
    const kinds = defects.filter((d) => d.file === rel && /timestamp/.test(d.kind)).map((d) => [d.kind, d.line]);
    expect(kinds).toContainEqual(['unparsable_timestamp', 3]);
    expect(kinds.some(([k, l]) => k === 'missing_timestamp' && l === 2)).toBe(true);
    const { events } = await store.sessionTimeline(SID, { offset: 0, limit: 10, descendants: false });
    expect(events.map((e) => e.lineNumber)).toEqual([1, 2, 3]);
    await store.close();
  });

  it('reports an empty file', async () => {
    const { root, rel } = claudeRoot('');
    const { store, defects } = await ingest(root);
    expect(defects.filter((d) => d.kind === 'empty_file').map((d) => [d.file, d.severity])).toEqual([[rel, 'info']]);
    await store.close();
  });

  it('reports an unreadable file and ingests the rest', async () => {
    // Tests run as root, for whom permissions do not stop reading: the unreadable file is one
    // that discovery listed and that vanished before it was read (the same error path).
    const { root, path, rel } = claudeRoot(`${userLine(1)}\n`);
    const otherId = 'dddddddd-0000-4000-8000-000000000004';
    writeFileSync(join(root, 'projects', SLUG, `${otherId}.jsonl`), `${userLine(1).replace(SID, otherId)}\n`);
    const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    const files = await claudeCode.discover(root);
    rmSync(path);
    const writer = await store.beginIngest();
    const rootId = await writer.rootId(root, 'claude-code');
    for (const file of files) await ingestFile(writer, claudeCode, file, rootId);
    await writer.summarizeDirty((_f, input) => claudeCode.summarize(input));
    await writer.release();
    const { defects } = await store.listDefects({ kind: 'unreadable_file', limit: 10, offset: 0 });
    expect(defects.map((d) => [d.file, d.severity])).toEqual([[rel, 'error']]);
    expect(defects[0]!.message).toMatch(/ENOENT/);
    expect((await store.getSession(otherId))?.turnCount).toBe(1);
    await store.close();
  });

  it('survives a symlink loop', async () => {
    const { root } = claudeRoot(`${userLine(1)}\n`);
    symlinkSync(join(root, 'projects'), join(root, 'projects', SLUG, 'loop'));
    symlinkSync(join(root, 'projects', 'a'), join(root, 'projects', 'b'));
    symlinkSync(join(root, 'projects', 'b'), join(root, 'projects', 'a'));
    const { store, summary } = await ingest(root);
    expect(summary.roots[0]?.error).toBeUndefined();
    expect((await store.getSession(SID))?.turnCount).toBe(1);
    await store.close();
  });

  it('ingests a folder of 10,000 small files', async () => {
    const root = tempDir('hs-many-');
    const dir = join(root, 'projects', SLUG);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 10_000; i++) {
      const id = `eeeeeeee-0000-4000-8000-${String(i).padStart(12, '0')}`;
      writeFileSync(join(dir, `${id}.jsonl`), `${userLine(1).replace(SID, id)}\n`);
    }
    const { store, summary } = await ingest(root);
    expect(summary.files).toBe(10_000);
    expect(summary.sessions).toBe(10_000);
    const again = await ingestPaths(store, [root]);
    expect(again.filesUnchanged).toBe(10_000);
    await store.close();
  });

  it('keeps unknown line types as generic events', async () => {
    const unknown = JSON.stringify({ type: 'hologram', uuid: 'u2', sessionId: SID, timestamp: '2026-03-01T10:00:02.000Z', data: { x: 1 } });
    const { root } = claudeRoot(`${userLine(1)}\n${unknown}\n`);
    const { store } = await ingest(root);
    const { events } = await store.sessionTimeline(SID, { offset: 0, limit: 10, descendants: false });
    expect(events.map((e) => [e.type, e.kind])).toContainEqual(['hologram', 'other']);
    await store.close();
  });

  it('reports duplicate lines', async () => {
    const { root, rel } = claudeRoot(`${userLine(1)}\n${userLine(2)}\n${userLine(2)}\n`);
    const { store, defects } = await ingest(root);
    expect(defects.filter((d) => d.kind === 'duplicate_line').map((d) => [d.file, d.line, d.severity])).toEqual([[rel, 3, 'info']]);
    await store.close();
  });

  it('reports a truncated last line and keeps every line before it', async () => {
    const { root, rel } = claudeRoot(`${userLine(1)}\n${userLine(2)}\n${userLine(3).slice(0, 30)}`);
    const { store, defects } = await ingest(root);
    expect(defects.filter((d) => d.kind === 'incomplete_last_line').map((d) => [d.file, d.line])).toEqual([[rel, 3]]);
    expect((await store.getSession(SID))?.turnCount).toBe(2);
    await store.close();
  });

  it('reports a metadata.json that is not JSON (Amplifier) and keeps the session', async () => {
    const root = tempDir('hs-amp-');
    const id = '11111111-2222-4333-8444-555555555555';
    const dir = join(root, 'projects', '-tmp-amp', 'sessions', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'metadata.json'), '{"session_id": "1111');
    writeFileSync(
      join(dir, 'transcript.jsonl'),
      `${JSON.stringify({ role: 'user', content: 'hello there', metadata: { timestamp: '2026-03-01T10:00:00+00:00' } })}\n`,
    );
    writeFileSync(join(dir, 'events.jsonl'), '');
    const { store, defects } = await ingest(root);
    const d = defects.find((x) => x.kind === 'invalid_document_json');
    expect(d?.file).toBe(`projects/-tmp-amp/sessions/${id}/metadata.json`);
    expect((await store.getSession(id))?.turnCount).toBe(1);
    await store.close();
  });
});

describe('findings that belong to no file', () => {
  it('are recorded even when the root yields no file at all', async () => {
    const root = tempDir('hs-empty-');
    mkdirSync(join(root, 'projects'));
    symlinkSync(join(root, 'projects', 'a'), join(root, 'projects', 'b'));
    symlinkSync(join(root, 'projects', 'b'), join(root, 'projects', 'a'));
    const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    const summary = await ingestPaths(store, [root], { format: 'claude-code' });
    expect(summary.files).toBe(0);
    const { defects } = await store.listDefects({ limit: 10, offset: 0 });
    expect(defects.length).toBeGreaterThan(0);
    expect(defects.every((d) => d.file.startsWith('projects/'))).toBe(true);
    // Reported once, however often the root is ingested.
    const again = await ingestPaths(store, [root], { format: 'claude-code' });
    expect(again.defects).toBe(0);
    expect((await store.listDefects({ limit: 10, offset: 0 })).total).toBe(defects.length);
    await store.close();
  });
});
