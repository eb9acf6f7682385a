// Store.dataVersion and Store.sessionTallies on every engine, and the answers kept by store version
// (usage_report, inspect_metrics, search_sessions): a write through this handle or another one
// gives a new version, and a kept answer is never served after the data it came from changed.

import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import type { Store } from '../store.js';
import { postgresEngine, postgresUnavailable, sqliteEngine, type Engine } from './engines.js';

const unavailable = await postgresUnavailable();
const engines: Engine[] = [sqliteEngine(), ...(unavailable === null ? [postgresEngine()] : [])];

afterAll(async () => {
  for (const e of engines) await e.dispose();
});

/** The calls whose answers are kept per store version. */
const CALLS: [string, Record<string, unknown>][] = [
  ['usage_report', { group_by: 'daily' }],
  ['usage_report', { group_by: 'session', breakdown: true }],
  ['inspect_metrics', { view: 'stats', days: 3660, until: '2030-12-31' }],
  ['inspect_metrics', { view: 'recent' }],
  ['search_sessions', { query: 'the', limit: 50 }],
];

async function answers(store: Store): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [name, args] of CALLS) out.push(await runTool(findTool(name)!, args, { store }));
  return out;
}

describe.each(engines.map((e) => [e.name, e] as const))('data version on %s', (_name, engine) => {
  it('stays the same without writes and changes with a write from this handle or another', async () => {
    const store = await engine.create();
    const empty = await store.dataVersion!();
    expect(empty).toEqual(expect.any(String));
    await ingestPaths(store, [copyFixture('claude-code')]);
    const ingested = await store.dataVersion!();
    expect(ingested).not.toBe(empty);
    // Reads write nothing (PostgreSQL's WAL position is the whole server's: no other test writes to it here).
    if (engine.name === 'sqlite') {
      await store.listSessions({ limit: 10, offset: 0 });
      expect(await store.dataVersion!()).toBe(ingested);
    }
    const other = await engine.reopen();
    await ingestPaths(other, [copyFixture('amplifier')]);
    await other.close();
    expect(await store.dataVersion!()).not.toBe(ingested);
    await store.close();
  });

  it('sessionTallies gives every session with the figures listSessions gives', async () => {
    const store = await engine.create();
    await ingestPaths(store, [copyFixture('claude-code'), copyFixture('amplifier')]);
    const { sessions } = await store.listSessions({ limit: 500, offset: 0 });
    const tallies = await store.sessionTallies!();
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expect(tallies.sort(byId)).toEqual(
      sessions
        .map((s) => ({
          id: s.id,
          parentId: s.parentId,
          project: s.project,
          projectPath: s.projectPath,
          format: s.format,
          status: s.status,
          startedAt: s.startedAt,
          llmCalls: s.llmCalls,
          toolCalls: s.toolCalls,
          toolErrors: s.toolErrors,
        }))
        .sort(byId),
    );
    expect(tallies.length).toBeGreaterThan(3);
    await store.close();
  });

  it('kept answers are the fresh ones, before and after another handle ingests more', async () => {
    const store = await engine.create();
    await ingestPaths(store, [copyFixture('claude-code')]);
    const first = await answers(store);
    expect(await answers(store)).toEqual(first); // kept
    const other = await engine.reopen();
    await ingestPaths(other, [copyFixture('amplifier')]);
    const fresh = await answers(other); // a handle that kept nothing for this version
    await other.close();
    const after = await answers(store);
    expect(after).toEqual(fresh);
    expect(after).not.toEqual(first);
    await store.close();
  });
});
