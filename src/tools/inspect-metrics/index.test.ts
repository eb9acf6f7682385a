// inspect_metrics over the shared fixtures of every format: the recent table's figures add up to
// the sessions' own, a session's turns add up to its cost, and the stats agree with usage_report.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { SessionRow } from '../../store/store.js';
import { runTool } from '../tool.js';
import { findTool } from '../registry.js';
import { inspectMetrics } from './index.js';

type Result = Record<string, any>;

const PARENT = '8463c716-a2ea-4c14-9efa-87158ebd9f20'; // Claude Code, 2 sub-agent files, 11 files edited
let store: SqliteStore;
let all: SessionRow[];
const call = (args: unknown) => runTool(inspectMetrics, args, { store }) as Promise<Result>;

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, ['control-plane/normal', 'claude-code', 'amplifier/normal'].map(copyFixture));
  all = (await store.listSessions({ limit: 10_000, offset: 0 })).sessions;
});
afterAll(() => store.close());

describe('recent', () => {
  it('one row per top-level session, newest first, with steps and tool calls of the whole family', async () => {
    const r = await call({ limit: 500 });
    const top = all.filter((s) => s.parentId === null);
    expect(r).toMatchObject({ status: 'ok', view: 'recent', count: top.length, returned: top.length });
    const dates = r.sessions.map((s: Result) => s.date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const row of r.sessions as Result[]) {
      const ids = new Set([row.session_id, ...(await store.sessionDescendants(row.session_id))]);
      const family = all.filter((s) => ids.has(s.id));
      expect(row.steps, row.session_id).toBe(family.reduce((n, s) => n + s.llmCalls, 0));
      expect(row.tool_calls, row.session_id).toBe(family.reduce((n, s) => n + s.toolCalls, 0));
      expect(row.status).toBe(all.find((s) => s.id === row.session_id)!.status);
    }
  });

  it('files touched are the distinct paths written or edited, sub-agents included, for Claude Code and Amplifier', async () => {
    const r = await call({ limit: 500 });
    const parent = r.sessions.find((s: Result) => s.session_id === PARENT);
    expect(parent.files_touched).toBe(11);
    expect(parent.files).toContain('/home/USER/projects/spotter-worktrees/spotter-fum/mix.exs');
    const amplifier = r.sessions.find((s: Result) => s.session_id.startsWith('ffe1fc2a'));
    expect(amplifier.files).toEqual(['/Users/jonas.weber/code/storefront-web/notes.md']);
  });

  it('filters by format and pages', async () => {
    const r = await call({ format: 'control-plane', limit: 2, offset: 1 });
    expect(r.sessions.every((s: Result) => s.format === 'control-plane')).toBe(true);
    expect(r).toMatchObject({ returned: 2, offset: 1, has_more: true, next_offset: 3 });
  });
});

describe('session', () => {
  it("a session's turns, with the rows before and after them, add up to its own cost; its cost equals usage_report's row", async () => {
    const report = (await runTool(findTool('usage_report')!, { group_by: 'session', limit: 500 }, { store })) as Result;
    for (const s of all.filter((x) => x.parentId === null)) {
      const r = await call({ view: 'session', session_id: s.id, limit: 500, max_bytes: 10_000_000 });
      expect(r.status, s.id).toBe('ok');
      expect(r.count, s.id).toBe(s.turnCount);
      const row = report.rows.find((x: Result) => x.session_id === s.id);
      expect(r.session.cost.cost_usd ?? 0, s.id).toBeCloseTo(row?.cost_usd ?? 0, 6);
      expect(r.session.tokens.total, s.id).toBe(row?.tokens.total ?? 0);
      const subCost = (r.subagents as Result[]).reduce((n, x) => n + (x.cost_usd ?? 0), 0);
      const parts = [...r.turns, r.before_first_turn, r.after_last_turn].filter(Boolean) as Result[];
      const turnCost = parts.reduce((n, x) => n + (x.cost_usd ?? 0), 0);
      expect(turnCost + subCost, s.id).toBeCloseTo(r.session.cost.cost_usd ?? 0, 6);
    }
  });

  it('names the failure mode of failed sessions and lists sub-agents', async () => {
    const errored = await call({ view: 'session', session_id: 'SES-28917E0E' });
    expect(errored.session.failure_mode).toMatch(/^DEGRADATION: /);
    const parent = await call({ view: 'session', session_id: PARENT.slice(0, 8) });
    expect(parent.session.session_id).toBe(PARENT);
    expect(parent.subagents).toHaveLength(2);
    expect(parent.session.steps).toBe(parent.turns.reduce((n: number, t: Result) => n + t.llm_calls, 0) + (parent.before_first_turn?.llm_calls ?? 0) + (parent.after_last_turn?.llm_calls ?? 0) + parent.subagents.reduce((n: number, x: Result) => n + x.steps, 0));
  });

  it('refuses a missing or unknown session clearly', async () => {
    expect(await call({ view: 'session' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(await call({ view: 'session', session_id: 'nope-nope' })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
  });
});

describe('stats', () => {
  it('over every session: outcomes add up, tokens and cost equal usage_report, failure modes are ranked', async () => {
    const r = await call({ view: 'stats', until: '2026-12-31', days: 3660 });
    const top = all.filter((s) => s.parentId === null);
    expect(r.sessions).toBe(top.length);
    expect(r.completed + r.errored + r.interrupted + r.active).toBe(r.sessions);
    expect(r.success_rate).toBeCloseTo(r.completed / (r.completed + r.errored + r.interrupted), 3);
    const report = (await runTool(findTool('usage_report')!, { group_by: 'session', limit: 500 }, { store })) as Result;
    expect(r.tokens.total).toBe(report.totals.tokens.total);
    expect(r.cost.cost_usd).toBeCloseTo(report.totals.cost_usd, 6);
    expect(r.total_steps).toBe(all.reduce((n, s) => n + s.llmCalls, 0));
    // Fewer than five modes here, so every failed session is counted under one of them.
    expect(r.top_failure_modes.length).toBeLessThan(5);
    expect(r.top_failure_modes.reduce((n: number, f: Result) => n + f.sessions, 0)).toBe(r.failed);
    expect(r.failed).toBe(all.filter((s) => s.parentId === null && (s.status === 'errored' || s.status === 'interrupted')).length);
    expect(r.top_failure_modes.map((f: Result) => f.mode)).toContain('interrupted by the user');
    expect(r.top_models[0].calls).toBeGreaterThanOrEqual(r.top_models[1].calls);
  });

  it('a window holds only the sessions started in it; a bad day is an argument error', async () => {
    const day = all.find((s) => s.parentId === null && s.format === 'claude-code')!.startedAt!.slice(0, 10);
    const r = await call({ view: 'stats', until: day, days: 1 });
    expect(r.window).toEqual({ from: day, until: day, days: 1 });
    expect(r.sessions).toBe(all.filter((s) => s.parentId === null && s.startedAt!.startsWith(day)).length);
    for (const until of ['2026-02-30', '2026-13-01', '9999-99-99', '0000-01-01', '2026-00-10']) {
      const r = await call({ view: 'stats', until });
      expect(r, until).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(r.error, until).toMatch(new RegExp(`until "${until}" is not a calendar day`));
    }
    expect(await call({ view: 'stats', until: 'last week' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(await call({ view: 'stats', days: 0 })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });
});
