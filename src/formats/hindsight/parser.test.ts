// The hindsight importer on hand-written session files: detection beside Codex's look-alike
// layout, defects with file and line, usage counted once per model_call, status per terminal state.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { runImporter } from '../../ingest/harness.js';
import { detectFormat } from '../registry.js';
import { hindsightFormat } from './index.js';

const ID = '11111111-2222-4333-8444-555555555555';
const base = (seq: number) => ({ session_id: ID, seq, ts: `2026-05-11T09:00:${String(seq).padStart(2, '0')}.000Z` });
const start = { type: 'session_start', mode: 'chat', provider: 'openai-compatible', model: 'qwen3-coder', cwd: '/srv/app', agent: 'coder', tools_allowed: ['read'], hindsight_version: '0.4.0' };

function sessionsRoot(records: (Record<string, unknown> | string)[], id = ID): { root: string; file: string } {
  const root = join(tempDir('hs-fmt-'), 'sessions');
  mkdirSync(join(root, '2026', '05', '11'), { recursive: true });
  const file = join(root, '2026', '05', '11', `${id}.jsonl`);
  writeFileSync(file, records.map((r, i) => (typeof r === 'string' ? r : JSON.stringify({ ...base(i), ...r }))).join('\n') + '\n');
  return { root, file };
}

const usage = (input: number, output: number, cacheRead: number, cacheCreation: number, reasoning: number) => ({
  input_tokens: input, output_tokens: output, cache_read_tokens: cacheRead, cache_creation_tokens: cacheCreation, reasoning_tokens: reasoning,
});
const modelCall = (step: number, u: ReturnType<typeof usage>) => ({ type: 'model_call', turn: 1, step, provider: 'openai-compatible', model: 'qwen3-coder', usage: u, usage_source: 'provider', finish_reason: 'stop', response_id: null, duration_ms: 10, cost_usd: 0 });

describe('detection', () => {
  it('claims a sessions root, its data folder, a date folder and a session file; not a Codex home', async () => {
    const { root, file } = sessionsRoot([start]);
    expect(await detectFormat(root)).toBe('hindsight');
    expect(await detectFormat(join(root, '..'))).toBe('hindsight');
    expect(await detectFormat(join(root, '2026', '05', '11'))).toBe('hindsight');
    expect(await detectFormat(file)).toBe('hindsight');
    expect(await detectFormat('../shared/fixtures/other-agents/codex')).toBe('codex');
  });
});

describe('parsing', () => {
  it('each model_call is one call with the provider figures; reasoning stays inside output', async () => {
    const { root } = sessionsRoot([
      start,
      { type: 'message', role: 'user', content: 'go', turn: 1 },
      modelCall(1, usage(100, 40, 500, 20, 12)),
      { type: 'message', role: 'assistant', content: 'done', turn: 1, step: 1 },
      modelCall(2, usage(7, 3, 0, 0, 0)),
      { type: 'message', role: 'assistant', content: 'really done', turn: 1, step: 2 },
      { type: 'turn_end', turn: 1, terminal_state: 'completed', steps: 2, tool_calls: 0, content: 'really done' },
    ]);
    const r = await runImporter(hindsightFormat, root);
    const s = r.sessions.get(ID)!;
    expect(s.calls.map((c) => [c.input, c.output, c.cacheRead, c.cacheWrite, c.reasoning])).toEqual([[100, 40, 500, 20, 0], [7, 3, 0, 0, 0]]);
    expect(s.summary).toMatchObject({ status: 'completed', llmCalls: 2, models: ['qwen3-coder'], tokens: { input: 107, output: 43, cacheRead: 500, cacheWrite: 20 }, firstUserMessage: 'go' });
    expect(s.summary.attrs).toMatchObject({ mode: 'chat', provider: 'openai-compatible', reasoningTokens: 12, terminalState: 'completed' });
    expect(s.facts).toMatchObject({ format: 'hindsight', kind: 'root', agentName: 'coder', projectPath: '/srv/app', project: '-srv-app', title: 'go' });
  });

  it('a bad line is an error defect with its file and line; odd records are findings, not failures', async () => {
    const { root } = sessionsRoot([
      start,
      '{"type":"message","role":"user",',
      { type: 'message', role: 'user', content: 'hi', turn: 1 },
      { type: 'message', role: 'robot', content: 'beep', turn: 1 },
      { type: 'telemetry_v2', turn: 1 },
      { type: 'message', role: 'assistant', content: 'hello', turn: 1, step: 1, session_id: 'someone-else' },
      { no_type: true },
    ]);
    const r = await runImporter(hindsightFormat, root);
    const found = r.defects.map((d) => [d.severity, d.kind, d.file, d.line]);
    expect(found).toEqual(expect.arrayContaining([
      ['error', 'malformed_json', `2026/05/11/${ID}.jsonl`, 2],
      ['error', 'malformed_record', `2026/05/11/${ID}.jsonl`, 4],
      ['info', 'unknown_record_type', `2026/05/11/${ID}.jsonl`, 5],
      ['warning', 'session_id_mismatch', `2026/05/11/${ID}.jsonl`, 6],
      ['error', 'not_a_runtime_record', `2026/05/11/${ID}.jsonl`, 7],
    ]));
    expect(r.sessions.get(ID)!.summary.turnCount).toBe(1);
  });

  it.each([
    ['completed', 'completed'],
    ['handoff', 'completed'],
    ['error', 'errored'],
    ['budget_exhausted', 'errored'],
    ['step_limit', 'errored'],
    ['aborted', 'interrupted'],
  ])('a last turn ending %s → %s', async (terminal, status) => {
    const { root } = sessionsRoot([start, { type: 'message', role: 'user', content: 'go', turn: 1 }, { type: 'turn_end', turn: 1, terminal_state: terminal, steps: 1, tool_calls: 0, content: null, ...(terminal === 'error' ? { error: 'provider said 500' } : {}) }]);
    expect((await runImporter(hindsightFormat, root)).sessions.get(ID)!.summary.status).toBe(status);
  });

  it('a prompt after the last turn_end, or an unanswered tool call, is a turn still running', async () => {
    const { root } = sessionsRoot([
      start,
      { type: 'message', role: 'user', content: 'one', turn: 1 },
      { type: 'turn_end', turn: 1, terminal_state: 'error', steps: 1, tool_calls: 0, content: null, error: 'boom' },
      { type: 'message', role: 'user', content: 'two', turn: 2 },
      { type: 'message', role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'bash', arguments: '{"command":"sleep 100"}' }], turn: 2, step: 1 },
    ]);
    const r = await runImporter(hindsightFormat, root);
    const s = r.sessions.get(ID)!;
    expect(s.summary.status).toBe('active');
    expect(s.derivedDefects).toEqual([expect.objectContaining({ kind: 'orphan_tool_call', line: 5 })]);
  });

  it('steering and harness messages are kept but open no turn', async () => {
    const { root } = sessionsRoot([
      start,
      { type: 'message', role: 'user', content: 'build it', turn: 1 },
      { type: 'message', role: 'user', content: 'use TypeScript', turn: 1, origin: 'steering' },
      { type: 'message', role: 'user', content: 'Your last response was empty. Please continue.', turn: 1, origin: 'recovery' },
    ]);
    const s = (await runImporter(hindsightFormat, root)).sessions.get(ID)!;
    expect(s.summary.turnCount).toBe(1);
    expect(s.events.filter((e) => e.kind === 'user_message').map((e) => e.attrs)).toEqual([{}, { origin: 'steering' }, { origin: 'recovery', nonHuman: true }]);
  });
});
