// Parsing on worker threads must leave exactly the store that parsing on the writer's thread
// leaves: the same sessions, events, lines, defects and evidence bytes, for every format, for a
// first ingest and for an incremental one. The worker is bundled from the sources under test.

import { brotliDecompressSync } from 'node:zlib';
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenCode } from '../../bench/generators/opencode.js';
import { generateClaudeCode } from '../../bench/generators/claude-code.js';
import { copyFixture, expectSameStore, tempDir } from '../../test/helpers.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { ingestPaths } from './ingest.js';
import { useParseWorkerUrl } from './parse-workers.js';
import { bundledParseWorker, removeBundledParseWorker } from './test-parse-worker.js';

function freshStore(): SqliteStore {
  return new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
}

/** Every file's evidence, decompressed and concatenated in line order (what raw_lines and grep read). */
function evidenceBytes(store: SqliteStore): Record<string, string> {
  const rows = store.db
    .prepare(`SELECT f.rel_path, f.generation, b.data FROM blocks b JOIN files f ON f.id = b.file_id ORDER BY f.rel_path, f.generation, b.first_line`)
    .all() as { rel_path: string; generation: number; data: Buffer }[];
  const out: Record<string, string> = {};
  for (const r of rows) {
    const key = `${r.rel_path}#${r.generation}`;
    out[key] = (out[key] ?? '') + brotliDecompressSync(r.data).toString('latin1');
  }
  return out;
}

async function bothWays(paths: string[], workers: number): Promise<[SqliteStore, SqliteStore]> {
  const inThread = freshStore();
  const onWorkers = freshStore();
  const a = await ingestPaths(inThread, paths, { parseWorkers: 0 });
  const b = await ingestPaths(onWorkers, paths, { parseWorkers: workers });
  expect(a.roots.every((r) => !r.error)).toBe(true);
  expect({ ...b, seconds: 0, roots: [] }).toEqual({ ...a, seconds: 0, roots: [] });
  return [inThread, onWorkers];
}

describe('parse workers', () => {
  beforeAll(() => useParseWorkerUrl(bundledParseWorker()));
  afterAll(() => {
    useParseWorkerUrl(null);
    removeBundledParseWorker();
  });

  const fixtures = [
    'claude-code/projects',
    'control-plane/normal',
    'control-plane/edge',
    'amplifier/real',
    'amplifier/edge',
    'other-agents/codex',
    'other-agents/gemini',
  ];
  for (const fixture of fixtures) {
    it(`leave the same store as parsing in-thread: ${fixture}`, async () => {
      const root = copyFixture(fixture);
      const [inThread, onWorkers] = await bothWays([root], 2);
      expectSameStore(onWorkers, inThread);
      expect(evidenceBytes(onWorkers)).toEqual(evidenceBytes(inThread));
      await inThread.close();
      await onWorkers.close();
    });
  }

  it('leave the same store for database rows (OpenCode) and for files of several chunks (Claude Code)', async () => {
    const home = tempDir('hs-oc-');
    generateOpenCode(home, { seed: 7, targetBytes: 3_000_000, layout: 'db' });
    const cc = tempDir('hs-cc-');
    generateClaudeCode(cc, { targetBytes: 12_000_000, seed: 3, projects: 2 });
    const [inThread, onWorkers] = await bothWays([home, cc], 1);
    expect((inThread.db.prepare('SELECT count(*) AS n FROM files WHERE lines > 0').get() as { n: number }).n).toBeGreaterThan(10);
    expectSameStore(onWorkers, inThread);
    expect(evidenceBytes(onWorkers)).toEqual(evidenceBytes(inThread));
    await inThread.close();
    await onWorkers.close();
  });

  it('fail the ingest with the worker named when a worker cannot start, and leave nothing half-written', async () => {
    const root = copyFixture('control-plane/normal');
    const store = freshStore();
    useParseWorkerUrl(new URL(`file://${join(tempDir('hs-none-'), 'missing-worker.mjs')}`));
    try {
      await expect(ingestPaths(store, [root], { parseWorkers: 1 })).rejects.toThrow(/parse worker 1/);
    } finally {
      useParseWorkerUrl(bundledParseWorker());
    }
    // The next run (workers back) ingests everything, as a run that never failed would.
    const again = await ingestPaths(store, [root], { parseWorkers: 1 });
    const clean = freshStore();
    await ingestPaths(clean, [root], { parseWorkers: 0 });
    expect(again.filesRead).toBe(3);
    expectSameStore(store, clean);
    await store.close();
    await clean.close();
  });

  it('resume an appended file from its checkpoint as parsing in-thread does', async () => {
    const rootA = copyFixture('claude-code/projects');
    const rootB = copyFixture('claude-code/projects');
    const inThread = freshStore();
    const onWorkers = freshStore();
    await ingestPaths(inThread, [rootA], { parseWorkers: 0 });
    await ingestPaths(onWorkers, [rootB], { parseWorkers: 1 });
    // Append a copy of a transcript's first lines (duplicates of stored lines) and a torn line.
    for (const root of [rootA, rootB]) {
      const slug = readdirSync(root).sort()[0]!;
      const file = join(root, slug, readdirSync(join(root, slug)).filter((f) => f.endsWith('.jsonl')).sort()[0]!);
      const head = readFileSync(file, 'utf8').split('\n').slice(0, 3).join('\n');
      appendFileSync(file, `${head}\n{"type":"user","torn`);
    }
    const a = await ingestPaths(inThread, [rootA], { parseWorkers: 0 });
    const b = await ingestPaths(onWorkers, [rootB], { parseWorkers: 1 });
    expect(a.filesRead).toBeGreaterThan(0);
    expect({ ...b, seconds: 0, roots: [] }).toEqual({ ...a, seconds: 0, roots: [] });
    expectSameStore(onWorkers, inThread);
    await inThread.close();
    await onWorkers.close();
  });
});
