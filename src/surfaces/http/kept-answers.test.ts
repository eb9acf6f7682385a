// Kept answers over HTTP (answer-cache.ts, kept-answers.ts): a repeated call is served from the
// kept bytes without running the tool, equal to a fresh run; an ingest (through the server's own
// store or by another process on the same SQLite file) gives the new answer; principals never
// share an entry; ETag and If-None-Match revalidate.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/store.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import { A_SESSION, B_SESSION, PLANTED_MARK, PROJECT_A, PROJECT_B, teamFixture, type TeamFixture } from '../access/test-team.js';
import { tokenStoreFor } from '../access/tokens/open-tokens.js';
import { createHttpApp } from './app.js';
import { canonicalJson, matchesIfNoneMatch } from './kept-answers.js';

const ID = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const SLUG = '-home-USER-projects-spotter-worktrees-spotter-fum';
const LINES = readFileSync(join(FIXTURES, 'claude-code', 'projects', SLUG, `${ID}.jsonl`), 'utf8').split('\n').filter(Boolean);

/** A Claude Code config folder holding the first `n` lines of the fixture session. */
function writeConfig(dir: string, n: number): string {
  const folder = join(dir, 'projects', SLUG);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${ID}.jsonl`), LINES.slice(0, n).join('\n') + '\n');
  return dir;
}

/** `store` with its ledger reads counted: every session_overview run reads them once (its version). */
function counted(store: Store): { store: Store; runs: () => number } {
  let n = 0;
  const view = Object.create(store) as Store;
  view.sessionLedgers = (id) => {
    n++;
    return store.sessionLedgers(id);
  };
  return { store: view, runs: () => n };
}

const overviewPost = (app: ReturnType<typeof createHttpApp>, headers: Record<string, string> = {}, args: Record<string, unknown> = { session_id: ID }) =>
  app.request('/api/tools/session_overview', { method: 'POST', body: JSON.stringify(args), headers: { 'content-type': 'application/json', ...headers } });

const direct = async (store: Store, args: Record<string, unknown> = { session_id: ID }) => JSON.stringify(await runTool(findTool('session_overview')!, args, { store: Object.create(store) as Store }));

/** Run `vite-node script args…` to its end. */
function runChild(script: string, args: string[]): Promise<void> {
  const child = spawn(join(REPO, 'node_modules', '.bin', 'vite-node'), [script, ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}: ${stderr}`)))));
}

describe('a repeated call', () => {
  it('is served from the kept bytes, byte for byte what a fresh run answers, with an ETag', async () => {
    const base = new SqliteStore(join(tempDir('hs-kept-'), 'h.db'));
    await ingestPaths(base, [writeConfig(tempDir('hs-claude-'), LINES.length)]);
    try {
      const { store, runs } = counted(base);
      const app = createHttpApp({ store });
      const first = await overviewPost(app);
      const text = await first.text();
      expect(text).toBe(await direct(base));
      expect(first.headers.get('etag')).toMatch(/^"[\w-]+"$/);
      expect(first.headers.get('content-type')).toBe('application/json');
      expect(runs()).toBe(1);
      // Concurrent repeats and the GET view: no new run.
      const again = await Promise.all(Array.from({ length: 10 }, () => overviewPost(app)));
      const viaGet = await app.request(`/api/sessions/${ID}`);
      for (const res of [...again, viaGet]) {
        expect(await res.text()).toBe(text);
        expect(res.headers.get('etag')).toBe(first.headers.get('etag'));
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      expect(runs()).toBe(1);
      // Other arguments are another answer; the same ones in another order are not.
      const smaller = await overviewPost(app, {}, { session_id: ID, top_user_messages: 1 });
      expect(await smaller.text()).toBe(await direct(base, { session_id: ID, top_user_messages: 1 }));
      const reordered = await overviewPost(app, {}, { top_user_messages: 1, session_id: ID });
      expect(await reordered.text()).toBe(await direct(base, { session_id: ID, top_user_messages: 1 }));
      expect(runs()).toBe(2);
      // Error answers are not kept and carry no ETag.
      const missing = await overviewPost(app, {}, { session_id: 'no-such-session' });
      expect([missing.status, missing.headers.get('etag')]).toEqual([404, null]);
    } finally {
      await base.close();
    }
  });

  it('answers 304 to a GET whose If-None-Match names its ETag (412 to a POST), and 200 with the new answer once the store changed', async () => {
    const dir = tempDir('hs-claude-');
    const store = new SqliteStore(join(tempDir('hs-kept-'), 'h.db'));
    await ingestPaths(store, [writeConfig(dir, Math.floor(LINES.length / 2))]);
    try {
      const app = createHttpApp({ store });
      const first = await overviewPost(app);
      const etag = first.headers.get('etag')!;
      const get = (header: string) => app.request(`/api/sessions/${ID}`, { headers: { 'if-none-match': header } });
      expect((await get('"warm-up"')).headers.get('etag')).toBe(etag);
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await get(header);
        expect(res.status, header).toBe(304);
        expect(await res.text()).toBe('');
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }
      const post = await overviewPost(app, { 'if-none-match': etag });
      expect([post.status, await post.text()]).toEqual([412, '']);
      expect((await overviewPost(app, { 'if-none-match': '"other"' })).status).toBe(200);
      writeConfig(dir, LINES.length);
      await ingestPaths(store, [dir]);
      const after = await overviewPost(app, { 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect(await after.text()).toBe(await direct(store));
    } finally {
      await store.close();
    }
  });
});

describe('an ingest', () => {
  it('through the server\'s own store gives the new answer', async () => {
    const dir = tempDir('hs-claude-');
    const store = new SqliteStore(join(tempDir('hs-kept-'), 'h.db'));
    await ingestPaths(store, [writeConfig(dir, Math.floor(LINES.length / 2))]);
    try {
      const app = createHttpApp({ store });
      const before = await (await overviewPost(app)).text();
      expect(await (await overviewPost(app)).text()).toBe(before);
      writeConfig(dir, LINES.length);
      await ingestPaths(store, [dir]);
      const after = await (await overviewPost(app)).text();
      expect(after).not.toBe(before);
      expect(after).toBe(await direct(store));
    } finally {
      await store.close();
    }
  });

  it('by another process writing the same SQLite file gives the new answer', async () => {
    const dir = tempDir('hs-claude-');
    const db = join(tempDir('hs-kept-'), 'h.db');
    const store = new SqliteStore(db);
    await ingestPaths(store, [writeConfig(dir, Math.floor(LINES.length / 2))]);
    try {
      const app = createHttpApp({ store });
      const before = await (await overviewPost(app)).text();
      expect(await (await overviewPost(app)).text()).toBe(before);
      writeConfig(dir, LINES.length);
      await runChild(join(REPO, 'src', 'surfaces', 'http', 'test-ingest-child.ts'), [db, dir]);
      const after = await (await overviewPost(app)).text();
      expect(after).not.toBe(before);
      expect(after).toBe(await direct(store));
      expect(JSON.parse(after).diagnostics.ledger_events).not.toEqual(JSON.parse(before).diagnostics.ledger_events);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('principals', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await teamFixture('sqlite');
  });
  afterAll(() => team.engine.dispose());

  it('never share an entry: the admin, a read-only token and a token of another project each get their own answer', async () => {
    const tokens = tokenStoreFor(team.store);
    const readOnly = await tokens.create({ user: 'ro', projects: [PROJECT_A], readOnly: true });
    const other = await tokens.create({ user: 'bo', projects: [PROJECT_B], readOnly: false });
    const app = createHttpApp({ store: team.store, token: 'admin-secret', tokens });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const args = { session_id: A_SESSION, redact: false };
    const admin = await overviewPost(app, as('admin-secret'), args);
    const adminText = await admin.text();
    expect(adminText).toContain(PLANTED_MARK); // the precondition: the admin sees the planted key
    const ro = await overviewPost(app, as(readOnly.token), args);
    expect(ro.status).toBe(200);
    expect(await ro.text()).not.toContain(PLANTED_MARK);
    expect(ro.headers.get('etag')).not.toBe(admin.headers.get('etag'));
    const foreign = await overviewPost(app, as(other.token), args);
    expect(foreign.status).toBe(404);
    expect((await overviewPost(app, as(other.token), { session_id: B_SESSION })).status).toBe(200);
    // And the admin's entry is still the admin's.
    expect(await (await overviewPost(app, as('admin-secret'), args)).text()).toBe(adminText);
    // A revalidation names only the caller's own copy: the admin's ETag is no 304 for the read-only token.
    expect((await overviewPost(app, { ...as(readOnly.token), 'if-none-match': admin.headers.get('etag')! }, args)).status).toBe(200);
  });
});

describe('helpers', () => {
  it('canonicalJson sorts keys at every depth and skips undefined like JSON.stringify', () => {
    expect(canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }], u: undefined })).toBe('{"a":[true,{"c":"x","d":null}],"b":1}');
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson([undefined, 'a'])).toBe('[null,"a"]');
  });

  it('matchesIfNoneMatch compares weakly, in lists, and accepts *', () => {
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
    expect(matchesIfNoneMatch('"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b" ,  "a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch('*', '"a"')).toBe(true);
  });
});
