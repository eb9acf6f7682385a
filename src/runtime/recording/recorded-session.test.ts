// A runtime session recorded through the recorder, synced into a real SQLite store step by step,
// then read by the tools: what every existing tool says about a `hindsight` session.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { ASK_ID, CHAT_ID, CHILD_ID, FIRST_PROMPT, PARENT_ID, recordScriptedRun, SECOND_PROMPT, type ScriptedRun } from '../../../test/runtime-session.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { renderMetrics } from '../../surfaces/cli/render-metrics.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';

type Obj = Record<string, any>;

let store: SqliteStore;
let run: ScriptedRun;
let sessionsRoot: string;
const call = async (name: string, args: Obj = {}): Promise<Obj> => {
  const r = (await runTool(findTool(name)!, args, { store })) as Obj;
  expect(r.status, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r).slice(0, 300)}`).toBe('ok');
  return r;
};

beforeAll(async () => {
  const dir = tempDir('hs-recorded-');
  sessionsRoot = join(dir, 'sessions');
  store = new SqliteStore(join(dir, 'h.db'));
  run = await recordScriptedRun(sessionsRoot, store);
});
afterAll(() => store.close());

describe('a recorded runtime session', () => {
  it('syncs every step without a store warning, and a later ingest of the root finds nothing new', async () => {
    expect(run.warnings).toEqual([]);
    const again = await ingestPaths(store, [sessionsRoot]);
    expect(again.roots).toEqual([{ path: expect.any(String), format: 'hindsight' }]);
    expect(again).toMatchObject({ files: 4, filesUnchanged: 4, events: 0, badLines: 0 });
  });

  it('list_sessions: four hindsight sessions, the handoff child a sub-agent of its parent', async () => {
    const r = await call('list_sessions', { limit: 50, top_level_only: false });
    const byId = new Map((r.sessions as Obj[]).map((s) => [s.session_id, s]));
    expect([...byId.keys()].sort()).toEqual([PARENT_ID, CHILD_ID, ASK_ID, CHAT_ID].sort());
    expect(byId.get(PARENT_ID)).toMatchObject({ format: 'hindsight', kind: 'root', parent_id: null, title: FIRST_PROMPT, status: 'completed', turn_count: 2, children: 1, project: '-work-demo', bad_lines: 0 });
    expect(byId.get(PARENT_ID)!.models).toEqual(['gpt-4o-mini', 'gpt-4o']);
    expect(byId.get(CHILD_ID)).toMatchObject({ kind: 'subagent', parent_id: PARENT_ID, status: 'completed' });
    expect(byId.get(CHILD_ID)!.title).toMatch(/^Task: add a subtraction test/);
    const top = await call('list_sessions', { limit: 50, top_level_only: true });
    expect((top.sessions as Obj[]).map((s) => s.session_id)).not.toContain(CHILD_ID);
  });

  it('session_overview: the about paragraph, the failed tool, the recovery and the sub-agent', async () => {
    const r = await call('session_overview', { session_id: PARENT_ID });
    expect(r.summary.about).toContain(FIRST_PROMPT);
    expect(r.summary.about).toMatch(/compacted once/);
    expect(r.summary.top_user_messages).toEqual([FIRST_PROMPT, SECOND_PROMPT]);
    expect(r.summary.errors).toEqual([expect.objectContaining({ type: 'tool_error', tool_name: 'bash', tool_call_id: 'call_bash_1', line_number: 10, message: expect.stringContaining('1 test failed') })]);
    expect(r.summary.warnings.map((w: Obj) => w.type)).toContain('recovery');
    expect(r.diagnostics.sub_agents).toEqual([expect.objectContaining({ session_id: CHILD_ID, kind: 'subagent', status: 'completed' })]);
    expect(r.diagnostics.tools.by_tool.bash).toEqual({ called: 1, succeeded: 0, failed: 1 });
  });

  it('reconstruct_session: the conversation in order, the tool calls with their results', async () => {
    const r = await call('reconstruct_session', { session_id: PARENT_ID, verbosity: 'full', include_tool_payloads: true });
    const text = JSON.stringify(r);
    expect(text.indexOf(FIRST_PROMPT)).toBeGreaterThan(-1);
    expect(text.indexOf(FIRST_PROMPT)).toBeLessThan(text.indexOf(SECOND_PROMPT));
    expect(text).toContain('src/add.ts');
    expect(text).toContain('subtract is not defined');
  });

  it('get_events: messages, tool calls and results, usage, compaction, recovery, handoff and turn ends', async () => {
    const r = await call('get_events', { session_id: PARENT_ID, limit: 500 });
    const events = r.events as Obj[];
    const kinds = new Set(events.map((e) => e.kind));
    for (const k of ['session_start', 'system', 'user_message', 'assistant_message', 'thinking', 'tool_call', 'tool_result', 'llm_call', 'compaction', 'warning', 'subagent_start']) expect(kinds, k).toContain(k);
    const failed = events.filter((e) => e.kind === 'tool_result' && e.is_error === true);
    expect(failed.map((e) => e.line_number)).toEqual([10]);
    expect(events.filter((e) => e.kind === 'llm_call')).toHaveLength(4);
    const handoff = await call('get_events', { session_id: PARENT_ID, event_types: ['subagent_start'], fields: ['child_session_id', 'reason'] });
    expect(handoff.events).toEqual([expect.objectContaining({ type: 'handoff', line_number: 23, fields: { child_session_id: CHILD_ID, reason: 'context exhausted' } })]);
    const usage = await call('get_events', { session_id: PARENT_ID, event_types: ['model_call'], fields: ['usage.input_tokens'] });
    expect((usage.events as Obj[]).map((e) => e.fields['usage.input_tokens'])).toEqual([1200, 1500, 1800, 2400]);
  });

  it('usage_report: totals equal the sum of the model_call records, each call once', async () => {
    const r = await call('usage_report', { group_by: 'session' });
    const sum = (k: 'input_tokens' | 'output_tokens' | 'cache_read_tokens' | 'cache_creation_tokens') => run.usage.reduce((n, u) => n + u.usage[k], 0);
    expect(r.totals.calls).toBe(run.usage.length);
    expect(r.totals.tokens).toMatchObject({ input: sum('input_tokens'), output: sum('output_tokens'), cache_read: sum('cache_read_tokens'), cache_write: sum('cache_creation_tokens') });
    const parent = (r.rows as Obj[]).find((row) => row.session_id === PARENT_ID)!;
    const family = run.usage.filter((u) => u.sessionId === PARENT_ID || u.sessionId === CHILD_ID);
    expect(parent.calls).toBe(family.length);
    expect(parent.tokens.input).toBe(family.reduce((n, u) => n + u.usage.input_tokens, 0));
    // The recorded costs are what display mode reports.
    const shown = await call('usage_report', { group_by: 'session', mode: 'display' });
    expect(shown.totals.cost_usd).toBeCloseTo(run.usage.reduce((n, u) => n + u.cost, 0), 9);
  });

  it('inspect --metrics: the Mode column says ask, chat or run', async () => {
    const r = await call('inspect_metrics', { view: 'recent' });
    const modes = Object.fromEntries((r.sessions as Obj[]).map((s) => [s.session_id, s.mode]));
    expect(modes).toEqual({ [PARENT_ID]: 'run', [ASK_ID]: 'ask', [CHAT_ID]: 'chat' });
    const parent = (r.sessions as Obj[]).find((s) => s.session_id === PARENT_ID)!;
    expect(parent).toMatchObject({ steps: 6, tool_calls: 5, tool_errors: 1, subagents: 1 });
    expect(parent.files).toEqual(['src/add.ts', 'src/sub.test.ts']);
    const text = renderMetrics(r, Object.assign((_style: unknown, s: string) => s, { enabled: false }));
    expect(text.split('\n')[0]).toMatch(/^DATE\s+MODE\s+FORMAT\s+MODEL/);
    expect(text).toMatch(/\brun\s+hindsight\s+gpt-4o-mini/);
    expect(text).toMatch(/\bask\s+hindsight/);
    expect(text).toMatch(/\bchat\s+hindsight/);
  });

  it('search_sessions finds a prompt and an answer', async () => {
    const r = await call('search_sessions', { query: 'subtraction' });
    const hits = (r.matches as Obj[]).filter((m) => m.match_type === 'transcript');
    expect(hits.find((m) => m.session_id === PARENT_ID)).toMatchObject({ excerpt: SECOND_PROMPT, ledger: 'session', line_number: 17 });
    const answer = await call('search_sessions', { query: 'recipes' });
    expect(JSON.stringify(answer)).toContain(CHAT_ID);
  });

  it('rewind_session refuses with the reason', async () => {
    const r = (await runTool(findTool('rewind_session')!, { session_id: PARENT_ID, to_turn: 1 }, { store })) as Obj;
    expect(r.status).toBe('error');
    expect(JSON.stringify(r)).toContain('only ever appended to');
  });
});
