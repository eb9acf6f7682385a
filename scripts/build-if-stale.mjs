#!/usr/bin/env node
// Runs `npm run build` only when dist/ is out of date, so `npm run demo` and `npm run bench` do
// not spend half a minute recompiling what `npm install` (prepare) already built. Plain JavaScript:
// it runs before anything is compiled.
//
// Out of date means: a TypeScript file the build compiles (tsconfig.build.json: src, bench, demo,
// scripts; tests left out) has no output in dist/ or is newer than its output, or a tsconfig is
// newer than the oldest output. tsc rewrites every output on each build, so an output's mtime is
// when it was last built. Measured with nothing changed: ~0.05 s here, where `tsc --incremental`
// still takes several seconds to load and check the program.
//
// The tool catalogues (dist/src/tools/tool-catalogue.json, tool-commands.json) are out of date when
// a compiled tool module is newer. The CLI's bundle (dist/bundle/, scripts/bundle-cli.mjs) is out of
// date when it is missing, older than the compiled CLI it was made from, or older than the scripts
// that make it (bundle-cli.mjs, bundle-sqlite-driver.mjs and cached-chunks.mjs).

import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['src', 'bench', 'demo', 'scripts'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];
/** The build's own exclude patterns (tsconfig.build.json): tests and test helpers. */
const isBuilt = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts') && !name.startsWith('test-');

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

function* sources(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* sources(path);
    else if (e.isFile() && isBuilt(e.name)) yield path;
  }
}

/** Why dist/ is stale, or null when it is up to date. */
export function staleReason(root = ROOT) {
  let oldestOutput = Infinity;
  let count = 0;
  for (const dir of SOURCE_DIRS) {
    for (const source of sources(join(root, dir))) {
      const rel = relative(root, source);
      const output = join(root, 'dist', rel.replace(/\.ts$/, '.js'));
      const built = mtime(output);
      if (built === null) return `${rel} has not been built`;
      if (mtime(source) > built) return `${rel} changed since the last build`;
      oldestOutput = Math.min(oldestOutput, built);
      count++;
    }
  }
  if (count === 0) return 'no sources found';
  for (const config of CONFIGS) {
    const changed = mtime(join(root, config));
    if (changed !== null && changed > oldestOutput) return `${config} changed since the last build`;
  }
  return catalogueStaleReason(root) ?? bundleStaleReason(root);
}

function newestUnder(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestUnder(path));
    else if (e.isFile() && e.name.endsWith('.js')) newest = Math.max(newest, mtime(path) ?? 0);
  }
  return newest;
}

/**
 * Why the tool catalogues the build writes after tsc (what `hindsight tools` and the CLI's flags are
 * read from) are stale, or null: written after every compiled tool module. A bare tsc leaves them
 * behind, and the CLI then falls back to loading every tool.
 */
function catalogueStaleReason(root) {
  const tools = join(root, 'dist', 'src', 'tools');
  const compiled = newestUnder(tools);
  for (const name of ['tool-catalogue.json', 'tool-commands.json']) {
    const written = mtime(join(tools, name));
    if (written === null) return `${name} has not been written`;
    if (compiled > written) return `${name} is older than the compiled tools`;
  }
  return null;
}

/** Why the CLI's bundle is stale, or null when it was made from the compiled CLI as it is now. */
function bundleStaleReason(root) {
  const bundled = mtime(join(root, 'dist', 'bundle', 'surfaces', 'cli', 'main.js'));
  if (bundled === null) return 'the CLI bundle has not been built';
  if (mtime(join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js')) > bundled) return 'the CLI bundle is older than the compiled CLI';
  for (const script of ['bundle-cli.mjs', 'bundle-sqlite-driver.mjs', 'cached-chunks.mjs']) {
    if (mtime(join(root, 'scripts', script)) > bundled) return `scripts/${script} changed since the last bundle`;
  }
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const reason = staleReason();
  if (reason === null) process.exit(0);
  process.stderr.write(`Building first (${reason})…\n`);
  const res = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  process.exit(res.status ?? 1);
}
