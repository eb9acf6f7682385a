// A scripted runtime session written through the real recorder (src/runtime/recording/): two turns
// of a `run` with tool calls, a failed bash result and its recovery, a compaction, a handoff to a
// child session that finishes the work, plus a one-turn `ask` and `chat` session. Tests and the
// format tour ingest what it writes; `usage` lists every model_call it recorded, to check totals.

import type { RecordedUsage } from '../src/formats/hindsight/records.js';
import { createRecorder, type RecordEntry, type SessionRecorder } from '../src/runtime/recording/recorder.js';
import type { Store } from '../src/store/store.js';

export const PARENT_ID = '6f1d7e52-3c8b-4a51-9d0e-2b7a4c9e1f01';
export const CHILD_ID = '6f1d7e52-3c8b-4a51-9d0e-2b7a4c9e1f02';
export const ASK_ID = '6f1d7e52-3c8b-4a51-9d0e-2b7a4c9e1f03';
export const CHAT_ID = '6f1d7e52-3c8b-4a51-9d0e-2b7a4c9e1f04';
export const FIRST_PROMPT = 'Fix the failing test in src/add.ts';
export const SECOND_PROMPT = 'Now add a test for subtraction';

export interface ScriptedRun {
  /** Every model_call recorded, by session. */
  usage: { sessionId: string; model: string; usage: RecordedUsage; cost: number }[];
  paths: Record<string, string>;
  /** What the recorders said about the store (nothing, when it works). */
  warnings: string[];
}

/** A clock that moves one second per record, from a fixed start. */
export function steppingClock(start = '2026-05-11T09:00:00.000Z'): () => Date {
  let t = Date.parse(start);
  return () => new Date((t += 1000));
}

function usage(input: number, output: number, cacheRead = 0, cacheCreation = 0, reasoning = 0): RecordedUsage {
  return { input_tokens: input, output_tokens: output, cache_read_tokens: cacheRead, cache_creation_tokens: cacheCreation, reasoning_tokens: reasoning };
}

/**
 * Record the scripted sessions under `sessionsRoot`. With `store`, each step is synced as the
 * runtime would; without, only the files are written.
 */
export async function recordScriptedRun(sessionsRoot: string, store: Store | null = null): Promise<ScriptedRun> {
  const run: ScriptedRun = { usage: [], paths: {}, warnings: [] };
  const clock = steppingClock();
  const open = (sessionId: string): SessionRecorder => createRecorder({ sessionsRoot, sessionId, clock, store, onStoreWarning: (m) => run.warnings.push(m) });
  const step = async (rec: SessionRecorder, entries: RecordEntry[]) => {
    for (const e of entries) {
      rec.record(e);
      if (e.type === 'model_call') run.usage.push({ sessionId: rec.sessionId, model: e.model, usage: e.usage, cost: e.cost_usd });
    }
    await rec.sync();
  };
  const call = (turn: number, step: number, u: RecordedUsage, cost: number, model = 'gpt-4o-mini'): RecordEntry => ({
    type: 'model_call', turn, step, provider: 'openai-compatible', model, usage: u, usage_source: 'provider', finish_reason: 'stop', response_id: `resp-${turn}-${step}`, duration_ms: 900, cost_usd: cost,
  });
  const start = (mode: 'ask' | 'chat' | 'run', parent?: string): RecordEntry => ({
    type: 'session_start', mode, provider: 'openai-compatible', model: 'gpt-4o-mini', cwd: '/work/demo', agent: 'default',
    tools_allowed: ['read', 'edit', 'write', 'bash'], hindsight_version: '0.4.0', ...(parent ? { parent_session_id: parent } : {}),
  });

  const parent = open(PARENT_ID);
  run.paths[PARENT_ID] = parent.path;
  await step(parent, [start('run'), { type: 'message', role: 'system', content: 'You are the Hindsight agent. Use tools to change files.', turn: 1 }, { type: 'message', role: 'user', content: FIRST_PROMPT, turn: 1 }]);
  await step(parent, [
    call(1, 1, usage(1200, 80, 300, 0, 20), 0.0012),
    { type: 'message', role: 'assistant', content: "I'll read the file first.", reasoning: 'The test fails; look at add.ts.', tool_calls: [{ id: 'call_read_1', name: 'read', arguments: { path: 'src/add.ts' } }], turn: 1, step: 1 },
    { type: 'tool_result', turn: 1, step: 1, call_id: 'call_read_1', name: 'read', content: 'export const add = (a, b) => a - b;', is_error: false, duration_ms: 3 },
  ]);
  await step(parent, [
    call(1, 2, usage(1500, 120, 1200, 64), 0.0019),
    {
      type: 'message', role: 'assistant', content: null, turn: 1, step: 2,
      tool_calls: [
        { id: 'call_edit_1', name: 'edit', arguments: { path: 'src/add.ts', old_string: 'a - b', new_string: 'a + b' } },
        { id: 'call_bash_1', name: 'bash', arguments: '{"command":"npm test"}' },
      ],
    },
    { type: 'tool_result', turn: 1, step: 2, call_id: 'call_edit_1', name: 'edit', content: 'Edited src/add.ts (1 replacement)', is_error: false, duration_ms: 4 },
    { type: 'tool_result', turn: 1, step: 2, call_id: 'call_bash_1', name: 'bash', content: 'Exit code 1\n1 test failed: subtract is not defined', is_error: true, duration_ms: 2100 },
    { type: 'recovery', turn: 1, scenario: 'bash_failure', attempt: 1, recovered: true, message: 'The last bash command failed with error: 1 test failed' },
    { type: 'message', role: 'user', content: 'The last bash command failed with error: 1 test failed. Fix it and try again.', turn: 1, origin: 'recovery' },
  ]);
  await step(parent, [
    call(1, 3, usage(1800, 60, 1500), 0.0011),
    { type: 'message', role: 'assistant', content: 'Fixed: add.ts adds again, and the remaining failure is the missing subtract export.', turn: 1, step: 3 },
    { type: 'span', span_id: 's1', parent_span_id: null, kind: 'turn', name: 'turn 1', start: '2026-05-11T09:00:01.000Z', end: '2026-05-11T09:00:20.000Z', duration_ms: 19000, attributes: { steps: 3 } },
    { type: 'turn_end', turn: 1, terminal_state: 'completed', steps: 3, tool_calls: 3, content: 'Fixed: add.ts adds again.' },
  ]);
  await step(parent, [{ type: 'message', role: 'user', content: SECOND_PROMPT, turn: 2 }]);
  await step(parent, [
    call(2, 1, usage(2400, 200, 1800, 0, 50), 0.0031, 'gpt-4o'),
    { type: 'message', role: 'assistant', content: 'Writing the test.', tool_calls: [{ id: 'call_write_1', name: 'write', arguments: { path: 'src/sub.test.ts', content: "test('sub', () => {});" } }], turn: 2, step: 1 },
    { type: 'tool_result', turn: 2, step: 1, call_id: 'call_write_1', name: 'write', content: 'Wrote src/sub.test.ts (22 bytes)', is_error: false, duration_ms: 2 },
    { type: 'compaction', turn: 2, stage: '1', tokens_before: 120000, tokens_after: 30000, messages_before: 40, messages_after: 12 },
    { type: 'log', level: 'warn', message: 'Context budget near limit', context: { estimatedInputTokens: 125000 } },
    { type: 'handoff', turn: 2, child_session_id: CHILD_ID, reason: 'context exhausted', manifest: 'Task: add a subtraction test. Done so far: wrote src/sub.test.ts.' },
    { type: 'turn_end', turn: 2, terminal_state: 'handoff', steps: 1, tool_calls: 1, content: null },
  ]);

  const child = open(CHILD_ID);
  run.paths[CHILD_ID] = child.path;
  await step(child, [start('run', PARENT_ID), { type: 'message', role: 'user', content: 'Task: add a subtraction test. Done so far: wrote src/sub.test.ts.', turn: 1, origin: 'handoff' }]);
  await step(child, [
    call(1, 1, usage(600, 40, 0, 0), 0.0004),
    { type: 'message', role: 'assistant', content: 'Checked: the subtraction test is in place.', tool_calls: [{ id: 'call_read_2', name: 'read', arguments: { path: 'src/sub.test.ts' } }], turn: 1, step: 1 },
    { type: 'tool_result', turn: 1, step: 1, call_id: 'call_read_2', name: 'read', content: "test('sub', () => {});", is_error: false, duration_ms: 1 },
    call(1, 2, usage(700, 30, 600, 0), 0.0003),
    { type: 'message', role: 'assistant', content: 'The subtraction test is written and passes.', turn: 1, step: 2 },
    { type: 'turn_end', turn: 1, terminal_state: 'completed', steps: 2, tool_calls: 1, content: 'The subtraction test is written and passes.' },
  ]);
  await child.close();
  await parent.close();

  for (const [id, mode, prompt, answer] of [
    [ASK_ID, 'ask', 'What does the sessions root hold?', 'One file per session, in date folders.'],
    [CHAT_ID, 'chat', 'Explain the recovery recipes briefly', 'Four recipes retry empty responses, bash failures, context exhaustion and loops.'],
  ] as const) {
    const rec = open(id);
    run.paths[id] = rec.path;
    await step(rec, [
      start(mode),
      { type: 'message', role: 'user', content: prompt, turn: 1 },
      call(1, 1, usage(300, 25), 0.0001),
      { type: 'message', role: 'assistant', content: answer, turn: 1, step: 1 },
      { type: 'turn_end', turn: 1, terminal_state: 'completed', steps: 1, tool_calls: 0, content: answer },
    ]);
    await rec.close();
  }
  return run;
}
