// The code cache of the bundle's cached chunks (chunk-cache.ts), with real files: used when it was
// made from the same bytes by this node, never when the script changed (even to bytes of the same
// length, which V8's own check lets through), when the file is damaged or made by another node,
// and a cache that cannot be read or written leaves the chunk running uncached.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../../../test/helpers.js';
import { cachePathOf, loadCachedChunk, type CacheOutcome, cacheOutcomes, writeChunkCache } from './chunk-cache.js';

/** A chunk script as scripts/cached-chunks.mjs writes them: imports in, exports out, a lazy import, import.meta. */
const script = (answer: number) => `(function (__chunkImport, __chunkMeta, __chunkImports) { 'use strict'; const { base } = __chunkImports;
function answer() { return base + ${answer}; }
const where = () => __chunkMeta.url;
const later = () => __chunkImport('node:path');
return [answer, where, later];
})
`;

/** Run the chunk at `path` once: its exports, how the cache went, and the cache written (as at exit). */
function run(path: string, base = 1000) {
  const writes: (() => void)[] = [];
  const meta = { url: 'file:///facade.js' } as ImportMeta;
  const [answer, where, later] = loadCachedChunk(pathToFileURL(path), (s) => import(s), meta, { base }, (w) => writes.push(w)) as [() => number, () => string, () => Promise<unknown>];
  const outcome = cacheOutcomes.get(path) as CacheOutcome;
  for (const write of writes) write();
  return { answer: answer(), where: where(), later, outcome, wrote: writes.length > 0 };
}

/**
 * Run the chunk at `path` in a new node process, through the built loader (dist/src), writing its
 * cache at exit as the CLI does: within one process V8 keeps compiled scripts by source and would
 * not look at the cached data again.
 */
function runFresh(path: string): { answer: number; outcome: CacheOutcome } {
  const loader = pathToFileURL(join(REPO, 'dist', 'src', 'surfaces', 'cli', 'chunk-cache.js')).href;
  const code = `import { loadCachedChunk, cacheOutcomes } from ${JSON.stringify(loader)};
const [answer] = loadCachedChunk(new URL(${JSON.stringify(pathToFileURL(path).href)}), (s) => import(s), import.meta, { base: 1000 });
process.stdout.write(JSON.stringify({ answer: answer(), outcome: cacheOutcomes.get(${JSON.stringify(path)}) }));`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  expect(res.status, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

function chunkFile(answer = 42): string {
  const path = join(tempDir('hs-chunk-cache-'), 'report-abc.script.js');
  writeFileSync(path, script(answer));
  return path;
}

describe('cached chunks', () => {
  it('in new processes: compiles and writes the cache at exit, then uses it; data V8 rejects is replaced', () => {
    const path = chunkFile();
    expect(runFresh(path)).toEqual({ answer: 1042, outcome: 'missing' });
    expect(runFresh(path)).toEqual({ answer: 1042, outcome: 'used' });
    // Header and source right, V8's data garbage: compiled normally, and a good cache written again.
    const file = readFileSync(cachePathOf(path));
    const dataStart = file.indexOf(script(42)) + script(42).length;
    writeFileSync(cachePathOf(path), Buffer.concat([file.subarray(0, dataStart), Buffer.alloc(200, 7)]));
    expect(runFresh(path)).toEqual({ answer: 1042, outcome: 'rejected' });
    expect(runFresh(path)).toEqual({ answer: 1042, outcome: 'used' });
  });

  it('compiles without a cache, writes one, and uses it on the next run with the same results', async () => {
    const path = chunkFile();
    const first = run(path);
    expect(first).toMatchObject({ answer: 1042, where: 'file:///facade.js', outcome: 'missing', wrote: true });
    expect(existsSync(cachePathOf(path))).toBe(true);
    const second = run(path, 2000);
    expect(second).toMatchObject({ answer: 2042, outcome: 'used', wrote: false });
    expect(await second.later()).toHaveProperty('join');
  });

  it('never uses a cache made from other bytes, even of the same length', () => {
    const path = chunkFile(42);
    run(path);
    writeFileSync(path, script(43)); // same length: V8's own check (the source's length) would pass it
    expect(readFileSync(path).length).toBe(script(42).length);
    expect(run(path)).toMatchObject({ answer: 1043, outcome: 'invalid', wrote: true });
    expect(run(path)).toMatchObject({ answer: 1043, outcome: 'used' });
    // In a new process, where V8 would take the old data for the new source and run the old code.
    runFresh(path);
    writeFileSync(path, script(44));
    expect(runFresh(path)).toEqual({ answer: 1044, outcome: 'invalid' });
  });

  it('ignores a damaged cache file (cut short, or garbage) and replaces it', () => {
    const path = chunkFile();
    run(path);
    truncateSync(cachePathOf(path), 100);
    expect(run(path)).toMatchObject({ answer: 1042, outcome: 'invalid', wrote: true });
    expect(run(path).outcome).toBe('used');
    writeFileSync(cachePathOf(path), 'not a cache at all');
    expect(run(path)).toMatchObject({ answer: 1042, outcome: 'invalid' });
  });

  it('ignores a cache made by another node version', () => {
    const path = chunkFile();
    run(path);
    const file = readFileSync(cachePathOf(path));
    const otherNode = Buffer.from(file.toString('latin1').replace(process.version, 'v0.0.1'), 'latin1');
    writeFileSync(cachePathOf(path), otherNode);
    expect(run(path)).toMatchObject({ answer: 1042, outcome: 'invalid', wrote: true });
    expect(run(path).outcome).toBe('used');
  });

  it('runs uncached when the cache can be neither read nor written, leaving no temporary file', () => {
    const path = chunkFile();
    // A folder where the cache file would be: reading it fails, and so does renaming a file onto it.
    mkdirSync(cachePathOf(path));
    expect(run(path)).toMatchObject({ answer: 1042, outcome: 'missing', wrote: true });
    expect(run(path)).toMatchObject({ answer: 1042, outcome: 'missing' });
    expect(readdirSync(join(path, '..')).sort()).toEqual(['report-abc.script.js', 'report-abc.script.js.v8cache']);
  });

  it('makes no cache data where no file can be written (each run of a read-only install would pay for it)', () => {
    let made = 0;
    const script = { createCachedData: () => (made++, Buffer.alloc(8)) } as unknown as Script;
    const nowhere = join(tempDir('hs-chunk-cache-'), 'missing-folder', 'x.script.js.v8cache');
    expect(() => writeChunkCache(nowhere, Buffer.from('x'), script)).not.toThrow();
    expect(made).toBe(0);
    expect(existsSync(nowhere)).toBe(false);
  });
});
