// session_overview over the shared fixtures of every format, against their manifests and
// expected files (ccusage totals for Claude Code, the generator's counts for Amplifier).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import { toIso } from '../../core/time.js';
import { assistantLine, makeConfigDir, SID, SLUG, text, userLine } from '../../formats/claude-code/test-lines.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { sessionOverview } from './index.js';

type Result = Record<string, any>;

const readJson = (rel: string) => JSON.parse(readFileSync(join(FIXTURES, rel), 'utf8'));
const oneLine = (s: string) => s.replace(/\s+/gu, ' ').trim();

let store: SqliteStore;
const call = (args: unknown) => runTool(sessionOverview, args, { store }) as Promise<Result>;

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  const sets = ['control-plane/normal', 'control-plane/edge', 'claude-code', 'amplifier/normal', 'amplifier/edge'];
  await ingestPaths(store, sets.map(copyFixture));
});
afterAll(() => store.close());

describe('Control Plane normal fixture', () => {
  it('agrees with the manifest for every session: status, turns, first message, times and events per ledger', async () => {
    const manifest = readJson('control-plane/normal/manifest.json');
    expect(manifest.session_table).toHaveLength(12);
    for (const row of manifest.session_table) {
      const r = await call({ session_id: row.session_id });
      expect(r.status, row.session_id).toBe('ok');
      expect(r.summary.status, row.session_id).toBe(row.expected_status);
      expect(r.summary.turn_count, row.session_id).toBe(row.turn_count);
      expect(r.summary.top_user_messages[0], row.session_id).toBe(row.first_user_message);
      expect(r.summary.started_at, row.session_id).toBe(toIso(row.started_at));
      expect(r.summary.ended_at, row.session_id).toBe(toIso(row.ended_at));
      expect(r.diagnostics.ledger_events, row.session_id).toEqual(row.ledger_events);
      const t = r.diagnostics.tokens;
      expect(t.grand_total).toBe(t.input_total + t.output_total + t.cache_write_total + t.cache_read_total);
    }
  });

  it('counts tokens once per call: they equal the total_cost the session host recorded at SESSION_END', async () => {
    const r = await call({ session_id: 'SES-8ACD6A79' });
    expect([r.diagnostics.tokens.input_total, r.diagnostics.tokens.output_total]).toEqual([23959, 5784]);
  });

  it('lists a budget_exhausted failure with its evidence, and says how a degraded session ended', async () => {
    const budget = await call({ session_id: 'SES-62BBD6DB' });
    expect(budget.summary.errors.map((e: Result) => [e.type, e.source, e.file])).toEqual([['budget_exhausted', 'ho1m', 'HO1/ledger/ho1m.jsonl']]);
    expect(budget.summary.about).toContain('One work order failed: budget exhausted.');
    const degraded = await call({ session_id: 'SES-28917E0E' });
    expect(degraded.summary.about).toBe(
      'The user started with “Please reconstruct SES-B385157F. Focus on: - tool calls - quality gate decisions - anything that failed”. ' +
        'It ran two classify and one synthesize work orders; the agent called reconstruct_session once. ' +
        "Two degradations and one rejected prompt occurred. It degraded: HO1 dispatch failed: 'NoneType' object has no attribute 'get'.",
    );
  });
});

describe('Claude Code fixture', () => {
  const ccusage = (id: string) => readJson('claude-code/expected.json').sessions[id].ccusage20;

  it('lists inline sidechains as sub-agents, with tokens by kind and by child, and tools by name with failures', async () => {
    const id = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
    const { summary: s, diagnostics: d } = await call({ session_id: id });
    const expected = ccusage(id);
    expect(d.tokens).toMatchObject({
      input_total: expected.inputTokens,
      output_total: expected.outputTokens,
      cache_write_total: expected.cacheCreationTokens,
      cache_read_total: expected.cacheReadTokens,
      grand_total: expected.totalTokens,
    });
    const children = d.tokens.by_child.reduce((sum: number, c: Result) => sum + c.grand_total, 0);
    expect(d.tokens.own.grand_total + children).toBe(d.tokens.grand_total);
    expect(d.sub_agents.map((a: Result) => [a.kind, a.agent_name, a.task, a.status])).toEqual([
      ['sidechain', 'general-purpose', 'Check package configuration', 'completed'],
      ['sidechain', 'general-purpose', 'Analyze current project structure', 'completed'],
    ]);
    expect(d.tools.by_tool.Task).toEqual({ called: 3, succeeded: 2, failed: 1 });
    expect(d.tools.by_tool.Edit).toEqual({ called: 1, succeeded: 0, failed: 1 });
    expect([d.tools.total_calls, d.tools.failed]).toEqual([13, 2]);
    expect(s.about).toBe(
      'The user started with “/orchestrator @CLAUDE.md を最新の状態にアップデートしてください”. ' +
        'It read one file, edited two, delegated three tasks, searched twice and updated its to-do list five times. ' +
        'Two tool calls failed (Task and Edit). Session ended cleanly.',
    );
  });

  it('names a sub-agent and a compaction helper, and counts the compaction', async () => {
    const id = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
    const { summary: s, diagnostics: d } = await call({ session_id: id });
    expect(d.tokens.grand_total).toBe(ccusage(id).totalTokens);
    expect(d.models).toEqual(ccusage(id).modelsUsed);
    expect(d.sub_agents.map((a: Result) => [a.session_id, a.kind, a.agent_name])).toEqual([
      [`${id}:acompact-f46190`, 'compaction', null],
      [`${id}:a7be2f0`, 'subagent', 'Explore'],
    ]);
    expect(d.compactions).toBe(1);
    expect(s.about).toMatch(/^The user started with “Work on bead spotter-fum\. .*…”\. It read 40 files, edited 22, wrote five files, ran 74 shell commands, delegated one task, searched 29 times/);
    expect(s.about).toMatch(/Session ended cleanly\. The context was compacted once\.$/);
    const child = await call({ session_id: `${id}:a7be2f0` });
    expect(child.summary).toMatchObject({ kind: 'subagent', parent_id: id, agent_name: 'Explore' });
    expect(child.summary.about).toMatch(/^Sub-agent Explore was asked: “I need to understand: 1\. How Spotter/);
  });

  it('shows only the words users typed, and says when the user interrupted', async () => {
    const { sessions } = await store.listSessions({ format: 'claude-code', limit: 100, offset: 0 });
    for (const row of sessions) {
      const r = await call({ session_id: row.id, top_user_messages: 50 });
      for (const m of r.summary.top_user_messages) expect(m, row.id).not.toMatch(/<\/?(command-|system-reminder|local-command|tool_result)/);
    }
    const interrupted = await call({ session_id: '55604662-cf2a-4331-851a-ec234028f8ca' });
    expect(interrupted.summary.status).toBe('interrupted');
    expect(interrupted.summary.about).toBe(
      'The user started with “mix phx.server doesnt seem to start”. It ran one shell command and searched once. Two tool calls failed (Bash and Glob). The user interrupted it.',
    );
  });

  it('says when the last response was an API error', async () => {
    const apiError = { isApiErrorMessage: true, message: { model: '<synthetic>', id: 'msg_x', role: 'assistant', content: [text('API Error: 529 overloaded')], stop_reason: 'stop_sequence' } };
    const dir = makeConfigDir({
      [`${SLUG}/${SID}.jsonl`]: [
        userLine('u1', null, 1, 'fix the flaky test<system-reminder>keep answers short</system-reminder>'),
        assistantLine('a1', 'u1', 2, { msg: 'msg_x', req: 'req_x' }, [text('API Error: 529 overloaded')], null, apiError),
      ],
    });
    const own = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(own, [dir]);
    const r = (await runTool(sessionOverview, { session_id: SID }, { store: own })) as Result;
    await own.close();
    expect(r.summary).toMatchObject({ status: 'errored', top_user_messages: ['fix the flaky test'], error_count: 1 });
    expect(r.summary.errors[0]).toMatchObject({ type: 'api_error', message: 'API Error: 529 overloaded', source: 'transcript', line_number: 2 });
    expect(r.summary.about).toBe('The user started with “fix the flaky test”. No tools were called. One API error occurred. The last response was an API error.');
  });

  it('answers byte-identically twice', async () => {
    const id = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
    expect(JSON.stringify(await call({ session_id: id }))).toBe(JSON.stringify(await call({ session_id: id })));
  });
});

describe('Amplifier normal fixture', () => {
  const expected = readJson('amplifier/normal/expected.json').sessions as Record<string, Result>;

  it('counts each tool call once although the transcript and events.jsonl both record it, and agrees with the generator', async () => {
    expect(Object.keys(expected)).toHaveLength(8);
    for (const [id, e] of Object.entries(expected)) {
      // redact: false, as the generator's prompts are compared as typed (one holds an API key).
      const { summary: s, diagnostics: d } = await call({ session_id: id, top_user_messages: 50, redact: false });
      expect(s.turn_count, id).toBe(e.turn_count);
      expect(s.kind, id).toBe(e.kind);
      expect(d.tools.total_calls, id).toBe(e.tool_calls.total);
      expect(d.tools.failed, id).toBe(e.tool_calls.failed);
      const called = Object.fromEntries(Object.entries(d.tools.by_tool as Record<string, Result>).map(([k, v]) => [k, v.called]));
      expect(called, id).toEqual(e.tool_calls.by_tool);
      expect(s.error_count, id).toBeGreaterThanOrEqual(e.error_count);
      // Message lists are one line, bounded; each is the start of the prompt as typed.
      e.user_prompts.forEach((p: string, i: number) => expect(oneLine(p).startsWith(s.top_user_messages[i].replace(/…$/, '')), id).toBe(true));
    }
  });

  it('shows the sub-agent chain, tokens per child and a plain about for parent and sub-agent', async () => {
    const id = 'f31d2334-3e59-4fd1-8a90-ee46c04cd0c2';
    const zen = '0000000000000000-72a41438bce83941_foundation-zen-architect';
    const { summary: s, diagnostics: d } = await call({ session_id: id });
    expect(d.tools.counted_from).toEqual(['events']);
    expect(d.sub_agents.map((a: Result) => [a.agent_name, a.parent_id])).toEqual([
      ['foundation:zen-architect', id],
      ['foundation:bug-hunter', zen],
    ]);
    expect(d.tokens.by_child.map((c: Result) => c.session_id)).toEqual([zen]);
    expect(d.tokens.own.grand_total + d.tokens.by_child[0].grand_total).toBe(d.tokens.grand_total);
    expect(s.about).toBe(
      'The user started with “¿Puedes revisar el manejo de errores en src/invoicing/models.py? 🐛 Creo que se tragan excepciones.” (three turns in all). ' +
        'It read one file, ran two shell commands, delegated one task, searched once and updated its to-do list once. ' +
        'One provider retry occurred. One tool call failed (grep). Session ended cleanly.',
    );
    const sub = await call({ session_id: zen });
    expect(sub.summary.about).toMatch(/^Sub-agent foundation:zen-architect was asked: “Propose a minimal design for making `apply_discount` testable/);
    expect(sub.summary.about).toMatch(/It read one file, ran two shell commands, delegated one task and fetched one web page\. Session ended cleanly\.$/);
  });

  it('says which call an interrupted session was waiting for', async () => {
    const r = await call({ session_id: '2e8f787d-d943-450c-a4e5-66879c192e69' });
    expect(r.summary.status).toBe('interrupted');
    expect(r.summary.about).toMatch(/It was interrupted with an unanswered grep call\.$/);
    expect(r.summary.warnings.map((w: Result) => [w.type, w.source, w.line_number])).toEqual([['orphan_tool_call', 'transcript', 8]]);
  });
});

describe('every session of every format (edge sets included)', () => {
  it('matches the declared output schema and has an about paragraph that ends a sentence', async () => {
    const { sessions } = await store.listSessions({ limit: 500, offset: 0 });
    expect(sessions.length).toBeGreaterThan(45);
    for (const row of sessions) {
      const r = await call({ session_id: row.id });
      expect(() => sessionOverview.output.parse(r), row.id).not.toThrow();
      expect(r.summary.about, row.id).toMatch(/^[A-Z].*\.$/su);
      expect(r.summary.about, row.id).not.toContain('\n');
    }
  });
});
