// grep from the evidence skips blocks by their gram filters (store/shared/gram-filter.ts): the
// answers must be exactly those of a scan that inflates every block, over real fixtures.

import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/store.js';
import { runTool } from '../tool.js';
import { grepJsonl } from './index.js';

type Result = Record<string, any>;
const FIXTURES = ['claude-code', 'amplifier/real', 'control-plane/normal', 'other-agents'];

let store: SqliteStore;
let roots: string[];

/** The store, counting the evidence blocks its scans hand to grep. */
function counting(inner: SqliteStore): { store: Store; visited: () => number } {
  let visited = 0;
  const scans = new Set<PropertyKey>(['scanEvidence', 'scanPackedEvidence']);
  const store = new Proxy(inner, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (!scans.has(key)) return value.bind(target);
      return (ids: number[], visit: (b: unknown) => boolean | void, skip?: unknown) =>
        value.call(target, ids, (b: unknown) => {
          visited++;
          return visit(b);
        }, skip);
    },
  }) as unknown as Store;
  return { store, visited: () => visited };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Literals cut from the fixtures' own lines (so most are found), some made absent, each also ignoring case. */
function patterns(): { pattern: string; ignore_case: boolean }[] {
  const lines: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.jsonl')) lines.push(...readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 40));
    }
  };
  for (const root of roots) walk(root);
  const out: { pattern: string; ignore_case: boolean }[] = [];
  for (let i = 0; i < lines.length && out.length < 48; i += 131) {
    const line = lines[i]!;
    const len = [4, 6, 11, 36][i % 4]!;
    const at = (i * 31) % Math.max(1, line.length - len);
    const piece = line.slice(at, at + len);
    if (/[\uD800-\uDFFF\uFFFD]/.test(piece)) continue;
    out.push({ pattern: escape(piece), ignore_case: false });
    const swapped = piece.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    out.push({ pattern: escape(swapped), ignore_case: true });
  }
  out.push(
    { pattern: 'Traceback', ignore_case: false },
    { pattern: 'TRACEBACK', ignore_case: true },
    { pattern: 'budget_exhausted', ignore_case: false },
    { pattern: '"type":"(user|assistant)","message"', ignore_case: false },
    { pattern: 'tool_use_id":"toolu_[0-9A-Za-z]+', ignore_case: false },
    { pattern: 'naïve', ignore_case: false },
    // Literals most blocks hold: past the first blocks, a search reads its blocks with their filters.
    { pattern: 'session', ignore_case: true },
    { pattern: 'content', ignore_case: false },
    { pattern: 'no-such-literal-anywhere', ignore_case: false },
    { pattern: 'NO-SUCH-literal', ignore_case: true },
  );
  return out;
}

beforeAll(async () => {
  roots = FIXTURES.map((f) => copyFixture(f));
  store = new SqliteStore(join(tempDir('hs-skip-'), 'h.db'));
  await ingestPaths(store, roots);
}, 120_000);

describe('grep skips evidence blocks by their gram filters', () => {
  it('every block ingested has a filter', () => {
    const row = store.db
      .prepare('SELECT count(*) AS n, count(f.gram_filter) AS filtered FROM blocks b LEFT JOIN block_filters f ON f.file_id = b.file_id AND f.first_line = b.first_line')
      .get() as { n: number; filtered: number };
    expect(row.n).toBeGreaterThan(10);
    expect(row.filtered).toBe(row.n);
  });

  it('answers exactly as without filters (every line found, same page), inflating fewer blocks', async () => {
    const cases = patterns();
    expect(cases.length).toBeGreaterThan(50);
    /** Each case's answer, and the blocks its scan visited. */
    const run = async (s: ReturnType<typeof counting>) => {
      const out: Result[] = [];
      const visited: number[] = [];
      for (const c of cases) {
        const before = s.visited();
        out.push((await runTool(grepJsonl, { ...c, scope: 'all', read_from: 'evidence', limit: 500, max_bytes: 10_000_000 }, { store: s.store })) as Result);
        visited.push(s.visited() - before);
      }
      return { out, visited };
    };
    const filtered = await run(counting(store));
    const withFilters = filtered.out;
    store.db.exec('DELETE FROM block_filters'); // a store written before filters
    const unfiltered = await run(counting(store));
    const without = unfiltered.out;
    for (let i = 0; i < cases.length; i++) {
      expect(withFilters[i]!.status, JSON.stringify([cases[i], withFilters[i]!.error])).toBe('ok');
      expect(withFilters[i], JSON.stringify(cases[i])).toEqual(without[i]);
    }
    expect(withFilters.filter((r) => r.count > 0).length).toBeGreaterThan(cases.length / 2);
    expect(withFilters.some((r) => r.count === 0)).toBe(true);
    // Blocks were skipped: an absent or rare literal's search inflates a few blocks instead of all of them.
    const total = (v: number[]) => v.reduce((a, b) => a + b, 0);
    expect(total(filtered.visited)).toBeLessThan(total(unfiltered.visited) * 0.8);
    const absent = cases.findIndex((c) => c.pattern === 'no-such-literal-anywhere');
    expect(unfiltered.visited[absent]).toBeGreaterThan(20);
    expect(filtered.visited[absent]).toBeLessThanOrEqual(unfiltered.visited[absent]! / 4);
    const traceback = cases.findIndex((c) => c.pattern === 'Traceback');
    expect(filtered.visited[traceback]).toBeLessThan(unfiltered.visited[traceback]! / 2);
  }, 120_000);

  it('finds a held-back last line once it is completed: its block and filter are replaced together', async () => {
    const sid = 'cccccccc-0000-4000-8000-0000000000f1';
    const root = tempDir('hs-held-');
    const dir = join(root, 'projects', '-tmp-held');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${sid}.jsonl`);
    const line = (n: number, text: string) =>
      JSON.stringify({ type: 'user', uuid: `u${n}`, parentUuid: null, sessionId: sid, timestamp: `2026-03-01T10:00:0${n}.000Z`, cwd: '/tmp/held', message: { role: 'user', content: text } });
    const last = line(2, 'the second prompt, FINISHED-LATER-MARKER');
    writeFileSync(path, `${line(1, 'the first prompt')}\n${last.slice(0, 40)}`);
    const held = new SqliteStore(join(tempDir('hs-held-db-'), 'h.db'));
    await ingestPaths(held, [root]);
    appendFileSync(path, `${last.slice(40)}\n`);
    await ingestPaths(held, [root]);
    const r = (await runTool(grepJsonl, { pattern: 'FINISHED-LATER-MARKER', scope: 'all', read_from: 'evidence' }, { store: held })) as Result;
    expect(r).toMatchObject({ status: 'ok', count: 1, read_from: 'evidence' });
    expect(r.entries[0]).toMatchObject({ line_number: 2, raw: last });
    const none = (await runTool(grepJsonl, { pattern: 'the third prompt', scope: 'all', read_from: 'evidence' }, { store: held })) as Result;
    expect(none).toMatchObject({ status: 'ok', count: 0, read_from: 'evidence' });
    await held.close();
  });
});
