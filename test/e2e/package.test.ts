// The package as users get it: `npm pack` of the built tree, installed from the tarball into an
// empty prefix, then the installed `hindsight` command run from there — --version, an ingest of a
// fixture, the tool list, and MCP tools/list through the SDK's Client over stdio. This catches what
// the in-repo tests cannot: a `files` list that leaves out dist/, web assets or data files, a bin
// that points at nothing, a dependency only the repo's devDependencies provided.
//
// Dependencies resolve from the npm cache (--offline; --prefer-offline when the cache lacks one).
// Install scripts are skipped and better-sqlite3 gets the repo's own compiled addon instead: the
// same version, and compiling it again (when no prebuilt binary can be downloaded) takes minutes.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO, tempDir } from '../helpers.js';

const work = tempDir('hs-package-');
const prefix = join(work, 'prefix');
const db = join(work, 'h.db');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string; version: string };
const installed = join(prefix, 'node_modules', pkg.name);
const command = join(prefix, 'node_modules', '.bin', 'hindsight');
let packed: { filename: string; size: number; files: { path: string; size: number }[] };

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' }, maxBuffer: 64 * 1024 * 1024 });
}

function hindsight(args: string[]): SpawnSyncReturns<string> {
  // Run from the work folder, not the repo, so nothing resolves back into the checkout.
  return spawnSync(command, args, { cwd: work, encoding: 'utf8', env: { ...process.env, TZ: 'UTC', NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
}

beforeAll(() => {
  // The tree is built before e2e tests run (pretest); --ignore-scripts keeps pack from rebuilding it.
  const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO);
  expect(pack.status, pack.stderr).toBe(0);
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
  const tarball = join(work, packed.filename);

  const install = (cache: string) => npm(['install', '--prefix', prefix, cache, '--ignore-scripts', '--no-audit', '--no-fund', tarball], work);
  let res = install('--offline');
  if (res.status !== 0 && /ENOTCACHED/.test(res.stderr)) res = install('--prefer-offline');
  expect(res.status, res.stderr).toBe(0);

  const addonVersion = (root: string) => (JSON.parse(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as { version: string }).version;
  expect(addonVersion(prefix), 'the install resolved another better-sqlite3 than the repo compiled; run npm install in the repo').toBe(addonVersion(REPO));
  const release = join('node_modules', 'better-sqlite3', 'build', 'Release');
  mkdirSync(join(prefix, release), { recursive: true });
  copyFileSync(join(REPO, release, 'better_sqlite3.node'), join(prefix, release, 'better_sqlite3.node'));
}, 300_000);

describe(`the ${pkg.name} package, installed from its tarball`, () => {
  it('ships the built code, the launcher, the web assets and the data files, and nothing large besides', () => {
    const paths = packed.files.map((f) => f.path);
    for (const needed of [
      'package.json',
      'bin/hindsight',
      'dist/src/surfaces/cli/main.js',
      'dist/bundle/surfaces/cli/main.js',
      'dist/bundle/tools/list-sessions/index.js',
      'dist/src/tools/tool-catalogue.json',
      'dist/src/usage/pricing.js',
      'dist/src/core/preset-secrets.js',
      'src/surfaces/web/public/index.html',
    ]) {
      expect(paths, needed).toContain(needed);
    }
    expect(paths.filter((p) => /\.map$|\.test\.js$|^test\/|^bench\/|^\.bench\/|^node_modules\//.test(p))).toEqual([]);
    // The report chunk's script ships; V8 code caches made on this machine do not (chunk-cache.ts).
    expect(paths.some((p) => /^dist\/bundle\/chunks\/report-[\w-]+\.script\.js$/.test(p))).toBe(true);
    expect(paths.filter((p) => p.endsWith('.v8cache'))).toEqual([]);
    expect(packed.size).toBeLessThan(2_000_000);
    expect(existsSync(join(installed, 'dist', 'src', 'surfaces', 'cli', 'main.js'))).toBe(true);
  });

  it("reads the build's tool catalogues, though the install gave the files new mtimes", async () => {
    // npm's tarball holds one fixed time for every file and the install writes them anew: the
    // registry's mtime the build recorded is gone.
    const registry = join(installed, 'dist', 'src', 'tools', 'registry.js');
    const recorded = (JSON.parse(readFileSync(join(installed, 'dist', 'src', 'tools', 'tool-commands.json'), 'utf8')) as { registry_mtime_ms: number }).registry_mtime_ms;
    expect(statSync(registry).mtimeMs).not.toBe(recorded);
    const catalogue = (await import(pathToFileURL(join(installed, 'dist', 'src', 'tools', 'catalogue.js')).href)) as typeof import('../../src/tools/catalogue.js');
    // Without them every command loads every tool to build its flags (~0.3 s instead of ~0.13 s).
    expect(catalogue.readCommandCatalogue()?.commands.length).toBeGreaterThan(10);
    expect(catalogue.readCatalogue()?.tools.length).toBeGreaterThan(10);
  });

  it('runs the bundle, though the install wrote dist/src after dist/bundle', () => {
    const main = (part: string) => statSync(join(installed, 'dist', part, 'surfaces', 'cli', 'main.js')).mtimeMs;
    expect(main('bundle')).toBeLessThanOrEqual(main('src'));
    // A resolve hook records every module the command loads.
    const hooks = join(work, 'record-hooks.mjs');
    const register = join(work, 'record.mjs');
    const out = join(work, 'loaded.txt');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(out)}, r.url + '\\n'); return r; }\n`);
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const res = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, command, '--version'], { cwd: work, encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    const loaded = readFileSync(out, 'utf8').split('\n').filter((u) => u.includes('/dist/'));
    expect(loaded.some((u) => u.includes('/dist/bundle/surfaces/cli/main.js'))).toBe(true);
    expect(loaded.filter((u) => u.includes('/dist/src/'))).toEqual([]);
  });

  it('hindsight --version prints the package version', () => {
    const res = hindsight(['--version']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(pkg.version);
  });

  it('ingests a fixture and answers a tool call from the installed copy', () => {
    const ingest = hindsight(['ingest', join(FIXTURES, 'control-plane', 'normal'), '--db', db, '--json']);
    expect(ingest.status, ingest.stderr).toBe(0);
    const summary = JSON.parse(ingest.stdout) as { status: string; sessions: number; events: number };
    expect(summary.status).toBe('ok');
    expect(summary.sessions).toBeGreaterThan(0);
    expect(summary.events).toBeGreaterThan(0);

    const list = hindsight(['tool', 'list_sessions', '{"limit": 500, "top_level_only": false}', '--db', db]);
    expect(list.status, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { count: number }).count).toBe(summary.sessions);
  });

  it('serves MCP over stdio: tools/list through the SDK Client gives every tool hindsight tools lists (--tools all)', async () => {
    const listed = hindsight(['tools', '--json']);
    expect(listed.status, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as { tools: { tool_id: string }[] }).tools.map((t) => t.tool_id);
    expect(names).toContain('list_sessions');

    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args: ['mcp', '--tools', 'all', '--db', db], cwd: work, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(names);
    } finally {
      await client.close();
    }
  });
});
