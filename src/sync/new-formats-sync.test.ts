// Sync carries the formats of issue 13 like the others: a machine that ingested Codex CLI rollouts,
// Gemini CLI chats and an OpenCode database pushes them, and a second machine that pulls answers
// the same list, overviews, event counts and usage for them (an OpenCode session travels as its
// row sources' evidence, not as the database).

import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenCode } from '../../bench/generators/opencode.js';
import { FIXTURES, tempDir } from '../../test/helpers.js';
import { postgresUnavailable } from '../store/conformance/engines.js';
import { ingestPaths } from '../ingest/ingest.js';
import type { Store } from '../store/store.js';
import { findTool } from '../tools/registry.js';
import { runTool } from '../tools/tool.js';
import { pullSync } from './pull.js';
import { pushSync } from './push.js';
import { eventCounts, machine, remoteSchema, type RemoteSchema } from './test-support.js';

const unavailable = await postgresUnavailable();
const FORMATS = ['codex', 'gemini', 'opencode'];

async function tool(store: Store, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const r = (await runTool(findTool(name)!, args, { store })) as Record<string, any>;
  expect(r.status, JSON.stringify(r).slice(0, 300)).toBe('ok');
  return r;
}

/** What must read the same on both machines: the sessions (without `source` and root paths), each overview, usage by session. */
async function answers(store: Store): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const format of FORMATS) {
    const list = await tool(store, 'list_sessions', { format, top_level_only: false, limit: 500, include_cloud: true, max_bytes: 10_000_000 });
    const sessions = (list.sessions as Record<string, unknown>[]).map(({ source: _s, root: _r, path: _p, ...rest }) => rest);
    const overviews = [];
    for (const s of sessions) overviews.push((await tool(store, 'session_overview', { session_id: s.session_id })).summary);
    const usage = await tool(store, 'usage_report', { group_by: 'session', format, limit: 500 });
    out[format] = { sessions, overviews, usage: usage.rows, totals: usage.totals };
  }
  return out;
}

describe.skipIf(unavailable !== null)('sync of Codex CLI, Gemini CLI and OpenCode sessions', () => {
  let remote: RemoteSchema;
  const a = machine('machine-new-a');
  const b = machine('machine-new-b');

  beforeAll(async () => {
    remote = remoteSchema();
    const codex = join(tempDir('hs-sync-codex-'), 'codex');
    cpSync(join(FIXTURES, 'other-agents', 'codex'), codex, { recursive: true });
    const gemini = join(tempDir('hs-sync-gemini-'), 'gemini');
    cpSync(join(FIXTURES, 'other-agents', 'gemini'), gemini, { recursive: true });
    const opencode = join(tempDir('hs-sync-opencode-'), 'opencode');
    generateOpenCode(opencode, { seed: 5, sessions: 4 });
    const la = a.open();
    const summary = await ingestPaths(la, [codex, join(gemini, 'tmp'), opencode]);
    expect(summary.roots.map((r) => r.format)).toEqual(['codex', 'gemini', 'opencode']);
    await la.close();
  });
  afterAll(async () => {
    await remote?.drop();
  });

  it('pushes, pulls, and the pulled copies answer like the machine that pushed them', async () => {
    const la = a.open();
    const pushed = await pushSync(a.options(la, remote.url));
    expect(pushed.lines).toBeGreaterThan(100);
    const expected = await answers(la);
    const countsA = await eventCounts(la);
    await la.close();
    for (const format of FORMATS) expect((expected as Record<string, { sessions: unknown[] }>)[format]!.sessions.length, format).toBeGreaterThan(0);

    const lb = b.open();
    const pulled = await pullSync(b.options(lb, remote.url));
    expect(pulled.sessions).toBeGreaterThan(0);
    expect(await answers(lb)).toEqual(expected);
    const countsB = await eventCounts(lb);
    for (const [id, n] of Object.entries(countsA)) expect(countsB[id], id).toBe(n);
    const sources = (await tool(lb, 'list_sessions', { limit: 500, include_cloud: true })).sessions.map((s: { source: string }) => s.source);
    expect(new Set(sources)).toEqual(new Set(['cloud']));
    await lb.close();
  });
});
