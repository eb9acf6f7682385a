// grep_jsonl over every session of every format (scope "all"): Claude Code, Amplifier and Control
// Plane in one store; each hit names its session and ledger and places the match in the line.
// Searches run the compiled worker: `npm run build` first.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { grepJsonl } from './index.js';

type Result = Record<string, any>;
let store: SqliteStore;
let claudeOnly: SqliteStore;
const call = (args: unknown, s: SqliteStore = store) => runTool(grepJsonl, args, { store: s }) as Promise<Result>;
const PATTERN = 'Traceback|401 Unauthorized|budget_exhausted';

beforeAll(async () => {
  const plane = writePlaneRoot(tempDir('hs-plane-'), [
    cp.sessionStart('SES-A', 0),
    cp.degradation('SES-A', 'budget_exhausted', 1),
    cp.sessionStart('SES-B', 2),
    cp.turn('SES-B', 1, 'hello', 'hi', 3),
  ]);
  const claude = copyFixture('claude-code');
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [plane, claude, copyFixture('amplifier/normal')]);
  claudeOnly = new SqliteStore(join(tempDir('hs-db-'), 'c.db'));
  await ingestPaths(claudeOnly, [claude]);
});

/** Every hit's match is where it says: in the raw bytes and in the excerpt. */
function expectPlaced(e: Result, re: RegExp): void {
  const bytes = Buffer.from(e.raw, 'utf8');
  const matched = bytes.subarray(e.match_offset, e.match_offset + e.match_length).toString('utf8');
  expect(matched).toMatch(new RegExp(`^(?:${re.source})$`));
  const [start, end] = e.excerpt_match;
  expect(e.excerpt.slice(start, end)).toBe(matched);
  expect(e.excerpt.length).toBeLessThanOrEqual(2 * 120 + matched.length + 2);
}

describe('grep_jsonl scope all', () => {
  it('searches every format in one call; each hit names its session and ledger and places the match', async () => {
    const r = await call({ pattern: PATTERN, scope: 'all', limit: 500 });
    expect(r.status).toBe('ok');
    expect(r).toMatchObject({ source: 'all', scope: 'all' });
    const formats = new Set<string>();
    for (const e of r.entries) {
      expectPlaced(e, new RegExp(PATTERN));
      expect(typeof e.ledger).toBe('string');
      if (e.session_id === 'SES-A') formats.add('control-plane');
      else if (e.file.includes('/sessions/')) formats.add('amplifier');
      else if (e.file.startsWith('projects/')) formats.add('claude-code');
    }
    expect([...formats].sort()).toEqual(['amplifier', 'claude-code', 'control-plane']);
    const cpHit = r.entries.find((e: Result) => e.session_id === 'SES-A');
    expect(cpHit).toMatchObject({ ledger: 'ho2m', file: 'HO2/ledger/ho2m.jsonl' });
  });

  it('narrows by format, project (substring) and since', async () => {
    const amp = await call({ pattern: PATTERN, format: 'amplifier', limit: 500 });
    expect(amp.count).toBeGreaterThan(0);
    expect(amp.entries.every((e: Result) => e.file.includes('/sessions/'))).toBe(true);
    const project = await call({ pattern: PATTERN, project: 'STOREFRONT', limit: 500 });
    expect(project.entries.map((e: Result) => e.session_id)).toEqual(amp.entries.map((e: Result) => e.session_id));
    const late = await call({ pattern: 'Traceback', since: '2026-02-11', format: 'claude-code' });
    expect(late.entries.map((e: Result) => e.session_id)).toEqual(['8463c716-a2ea-4c14-9efa-87158ebd9f20']);
    const none = await call({ pattern: 'Traceback', since: '2099-01-01' });
    expect(none).toMatchObject({ status: 'ok', count: 0, sessions_searched: 0 });
  });

  it('takes a session id prefix (with its sub-agents), and refuses an ambiguous one listing the candidates', async () => {
    const r = await call({ pattern: 'Traceback', session_id: '8463c716', scope: 'all' });
    expect(r.count).toBe(1);
    expect(r.entries[0].session_id).toBe('8463c716-a2ea-4c14-9efa-87158ebd9f20');
    expect(r.files_searched.some((f: string) => f.includes('subagents/agent-a7be2f0.jsonl'))).toBe(true);
    // A sub-agent's own file is its session's, not its parent's.
    const sub = await call({ pattern: '^\\{"parentUuid":[^,]*,"isSidechain":true', session_id: '8463c716', scope: 'all', limit: 500 });
    expect(sub.count).toBe(138);
    for (const e of sub.entries) {
      const agent = e.file.match(/agent-(\w+)\.jsonl$/)![1];
      expect(e).toMatchObject({ session_id: `8463c716-a2ea-4c14-9efa-87158ebd9f20:${agent}`, ledger: `agent-${agent}` });
    }
    const cpOnly = await call({ pattern: PATTERN, session_id: 'SES-A', scope: 'all' });
    expect(cpOnly.entries.map((e: Result) => e.session_id)).toEqual(['SES-A']);
    const ambiguous = await call({ pattern: 'x', session_id: 'SES-', scope: 'all' });
    expect(ambiguous).toMatchObject({ status: 'error', code: 'AMBIGUOUS_SESSION' });
    expect(ambiguous.error).toContain('SES-A');
    expect(ambiguous.error).toContain('SES-B');
  });

  it('keeps the seed default where a plane root is ingested, and searches everything where none is', async () => {
    const seed = await call({ pattern: 'budget_exhausted' });
    expect(seed).toMatchObject({ status: 'ok', source: 'governance', scope: 'ledger' });
    const claude = await call({ pattern: 'Traceback' }, claudeOnly);
    expect(claude).toMatchObject({ status: 'ok', scope: 'all', count: 1 });
    expectPlaced(claude.entries[0], /Traceback/);
    // A session prefix works in the one-ledger scope too.
    const one = await call({ pattern: 'Traceback', session_id: '8463c716' }, claudeOnly);
    expect(one).toMatchObject({ status: 'ok', scope: 'ledger', source: 'transcript', session_id: '8463c716-a2ea-4c14-9efa-87158ebd9f20', count: 1 });
    expectPlaced(one.entries[0], /Traceback/);
  });

  it('refuses filters with one ledger', async () => {
    const r = await call({ pattern: 'x', ledger: 'ho2m', format: 'amplifier' });
    expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });
});
