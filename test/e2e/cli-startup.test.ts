// Start-up: each command loads only the engines and surfaces it uses. Timings are for
// bench/startup-bench.ts; this holds what they depend on, the modules a command loads, recorded by
// a resolve hook on the built CLI.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, runCli, tempDir } from '../helpers.js';

const work = tempDir('hs-startup-');
const db = join(work, 'h.db');
const hooks = join(work, 'record-hooks.mjs');
const register = join(work, 'record.mjs');

beforeAll(() => {
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(out, r.url + '\\n');
  return r;
}
`,
  );
  // CommonJS packages the CLI requires itself (better-sqlite3: src/store/sqlite/driver.ts) pass no
  // ESM resolve hook: their files are recorded where require resolves them.
  writeFileSync(
    register,
    `import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { out: process.env.RECORD_MODULES } });
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const path = resolveFilename.apply(this, args);
  if (path.startsWith('/')) appendFileSync(process.env.RECORD_MODULES, pathToFileURL(path).href + '\\n');
  return path;
};
`,
  );
  const res = runCli(['ingest', join(FIXTURES, 'control-plane', 'normal'), '--db', db]);
  expect(res.status, res.stderr).toBe(0);
});

let run = 0;
/** The module URLs `hindsight ARGS` loads, after checking it succeeded. */
function modulesLoaded(args: string[]): string[] {
  const out = join(work, `modules-${run++}.txt`);
  writeFileSync(out, '');
  const res = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, RECORD_MODULES: out, HINDSIGHT_DB: db },
  });
  expect(res.status, res.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

const pkg = (name: string) => (url: string) => url.includes(`/node_modules/${name}/`);
const HEAVY = ['pg', '@modelcontextprotocol/sdk', 'hono', '@hono/node-server', 'zod-to-json-schema'];

describe('what each command loads', () => {
  it('--help loads no dependency at all', () => {
    const loaded = modulesLoaded(['--help']);
    expect(loaded.filter((u) => u.includes('/node_modules/'))).toEqual([]);
    expect(loaded.some((u) => u.endsWith('/surfaces/cli/main.js'))).toBe(true);
  });

  it('tools lists the tools from the build catalogue, loading no tool', () => {
    const loaded = modulesLoaded(['tools']);
    for (const name of [...HEAVY, 'zod', 'better-sqlite3']) expect(loaded.filter(pkg(name)), name).toEqual([]);
    expect(loaded.filter((u) => /\/tools\/[a-z-]+\/index\.js$/.test(u))).toEqual([]);
  });

  it('the catalogue it reads is the registry as describeTools() gives it', async () => {
    const { describeTools } = await import('../../src/tools/describe-tools.js');
    const res = runCli(['tools', '--json']);
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(JSON.parse(JSON.stringify(describeTools())));
  });

  it('a SQLite tool call loads that tool and the SQLite engine, not the others, pg, MCP or HTTP', () => {
    const loaded = modulesLoaded(['tool', 'list_sessions', '{}']);
    for (const name of HEAVY) expect(loaded.filter(pkg(name)), name).toEqual([]);
    expect(loaded.some(pkg('better-sqlite3'))).toBe(true);
    expect(loaded.filter((u) => /\/tools\/[a-z-]+\/index\.js$/.test(u)).map((u) => u.split('/tools/')[1])).toEqual(['list-sessions/index.js']);
  });

  it('the views load their own tool only (usage)', () => {
    const loaded = modulesLoaded(['usage', 'daily', '--json']);
    for (const name of HEAVY) expect(loaded.filter(pkg(name)), name).toEqual([]);
    expect(loaded.filter((u) => /\/tools\/[a-z-]+\/index\.js$/.test(u)).map((u) => u.split('/tools/')[1])).toEqual(['usage-report/index.js']);
  });

  it('a report loads its path (views, store, up-to-date check) as one chunk, not one per module group', () => {
    const loaded = new Set(modulesLoaded(['usage', 'daily', '--json']).filter((u) => u.includes('/dist/bundle/')));
    // main, what main imports, the report chunk, the tool loader, the usage tool and the two small
    // chunks it shares with other tools; 22 files before scripts/bundle-cli.mjs grouped the path.
    expect([...loaded].filter((u) => /\/chunks\/report-[\w-]+\.js$/.test(u))).toHaveLength(1);
    expect(loaded.size).toBeLessThanOrEqual(8);
  });

  it('the report chunk runs from its script with a V8 code cache beside it (scripts/cached-chunks.mjs)', () => {
    const chunks = join(REPO, 'dist', 'bundle', 'chunks');
    const facade = readdirSync(chunks).find((f) => /^report-[\w-]+\.js$/.test(f) && !f.endsWith('.script.js'))!;
    const script = facade.replace(/\.js$/, '.script.js');
    expect(readFileSync(join(chunks, facade), 'utf8')).toContain(`loadCachedChunk(new URL("./${script}"`);
    modulesLoaded(['usage', 'daily', '--json']);
    // Written at the exit of the first report that found none (or kept from an earlier run): it
    // starts with its header and holds the script's exact bytes.
    const cache = readFileSync(join(chunks, `${script}.v8cache`));
    expect(cache.subarray(0, 24).toString('latin1')).toBe('hindsight-chunk-cache 1\n');
    expect(cache.includes(readFileSync(join(chunks, script)))).toBe(true);
  });

  it('every bundle file a warm report loads runs cached, but main and what main imports (CACHED_CHUNKS is up to date)', () => {
    const loaded = modulesLoaded(['usage', 'daily', '--json']).filter((u) => u.includes('/dist/bundle/') && u.endsWith('.js'));
    const own = loaded.filter((u) => !/\/surfaces\/cli\/main\.js$|\/chunks\/main-deps-[\w-]+\.js$|\/vendor\//.test(u));
    expect(own.length).toBeGreaterThanOrEqual(3);
    const uncached = own.filter((u) => !readFileSync(new URL(u), 'utf8').includes('loadCachedChunk('));
    expect(uncached.map((u) => u.split('/dist/bundle/')[1])).toEqual([]);
  });
});
