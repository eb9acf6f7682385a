// Tests run the TypeScript sources, which a worker thread cannot load: this bundles the parse
// worker (parse-worker.ts and everything it imports from src/) into one ES module with esbuild, so
// that the tests exercise the worker built from the code under test, never a stale dist/ copy.
// The bundle is written under node_modules/.cache so that the packages it leaves external
// (better-sqlite3 and the rest) resolve from the repository's node_modules.

import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const REPO = resolve(import.meta.dirname, '..', '..');
let built: URL | null = null;

/** The parse worker bundled from the sources (once per test process). */
export function bundledParseWorker(): URL {
  if (built) return built;
  const dir = join(REPO, 'node_modules', '.cache', 'hindsight-test-workers');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `parse-worker-${process.pid}-${Date.now()}.mjs`);
  buildSync({
    entryPoints: [join(REPO, 'src', 'ingest', 'parse-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  built = pathToFileURL(outfile);
  return built;
}

/** Delete the bundle (after the tests that use it). */
export function removeBundledParseWorker(): void {
  if (built) rmSync(fileURLToPath(built), { force: true });
  built = null;
}
