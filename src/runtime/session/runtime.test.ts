// The agent runtime end to end, as `hindsight ask|chat|run` builds it (buildRuntime), against fake
// OpenAI-compatible and Anthropic servers on loopback that speak the real wire protocols: the
// seed's script (hello, the ledger question, the folder question, the classify exchange), every
// recovery recipe, compaction, the budget stop, abort, steering, handoff, the permission hook, and
// each recorded session read back through the registry's tools.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, startFakeOpenAI } from '../../../test/fake-providers/index.js';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import type { RuntimeRecord } from '../../formats/hindsight/records.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { findTool } from '../../tools/registry.js';
import { runTool } from '../../tools/tool.js';
import { buildRuntime, type RuntimeSetup } from './build-runtime.js';

type Obj = Record<string, any>;

let store: SqliteStore;
let planeRoot: string;
let home: string;
const warnings: string[] = [];

beforeAll(async () => {
  home = tempDir('hs-runtime-');
  store = new SqliteStore(join(home, 'h.db'));
  planeRoot = copyFixture('control-plane/normal');
  await ingestPaths(store, [planeRoot]);
});
afterAll(() => store.close());

/** The environment of a run: its own config and data folders, no keys. */
function envFor(config?: Obj): NodeJS.ProcessEnv {
  const dir = tempDir('hs-runtime-env-');
  const env: NodeJS.ProcessEnv = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), PATH: process.env.PATH };
  if (config) {
    mkdirSync(join(dir, 'config', 'hindsight'), { recursive: true });
    writeFileSync(join(dir, 'config', 'hindsight', 'config.json'), JSON.stringify(config));
  }
  return env;
}

function setup(mode: RuntimeSetup['mode'], baseUrl: string, extra: Partial<RuntimeSetup> = {}, flags: Obj = {}): RuntimeSetup {
  return {
    mode,
    flags: { provider: 'custom', 'base-url': baseUrl, model: 'test-model', ...flags },
    env: extra.env ?? envFor(),
    cwd: planeRoot,
    warn: (line) => warnings.push(line),
    store,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  };
}

function records(path: string): RuntimeRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RuntimeRecord);
}

const call = async (name: string, args: Obj): Promise<Obj> => {
  const r = (await runTool(findTool(name)!, args, { store })) as Obj;
  expect(r.status, JSON.stringify(r).slice(0, 400)).toBe('ok');
  return r;
};

describe("the seed's end-to-end script (analyst, OpenAI-compatible wire)", () => {
  it('"hello" → an answer with no tool call', async () => {
    const fake = await startFakeOpenAI([{ content: 'Hello! Ask me about your agent sessions.', usage: { inputTokens: 900, outputTokens: 9, cacheReadTokens: 0, cacheCreationTokens: 0, reasoningTokens: 0 } }]);
    const runtime = await buildRuntime(setup('ask', fake.url));
    const result = await runtime.turn('hello');
    await runtime.close();
    await fake.close();
    expect(result).toMatchObject({ terminalState: 'completed', finalContent: 'Hello! Ask me about your agent sessions.', steps: 1, toolCalls: 0 });
    const body = fake.modelRequests[0]!.body as Obj;
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.tools.map((t: Obj) => t.function.name)).toEqual(expect.arrayContaining(['list_sessions', 'query_ledger', 'list_files', 'read_file']));
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toMatch(/session ids?/i);
    // Recorded natively, with the provider's own tokens.
    const recs = records(runtime.recordPath);
    expect(recs[0]).toMatchObject({ type: 'session_start', mode: 'ask', provider: 'custom', model: 'test-model' });
    expect(recs.find((r) => r.type === 'model_call')).toMatchObject({ usage: { input_tokens: 900, output_tokens: 9 }, usage_source: 'provider' });
    expect(recs.at(-1)).toMatchObject({ type: 'turn_end', terminal_state: 'completed', content: 'Hello! Ask me about your agent sessions.' });
  });

  it('the ledger question → query_ledger({"ledger":"ho2m","event_type":"TURN_RECORDED"}), exactly', async () => {
    const args = { ledger: 'ho2m', event_type: 'TURN_RECORDED' };
    const fake = await startFakeOpenAI([
      { toolCalls: [{ id: 'call_1', name: 'query_ledger', arguments: args }] },
      { content: 'The session ledger holds the turn events shown (ho2m.jsonl).' },
    ]);
    const runtime = await buildRuntime(setup('ask', fake.url));
    const result = await runtime.turn('show me turn events from the session ledger');
    await runtime.close();
    await fake.close();
    expect(result).toMatchObject({ terminalState: 'completed', steps: 2, toolCalls: 1 });
    expect(result.toolOutcomes[0]).toMatchObject({ name: 'query_ledger', arguments: args, isError: false });
    const second = fake.modelRequests[1]!.body as Obj;
    const toolMessage = second.messages.find((m: Obj) => m.role === 'tool');
    expect(toolMessage.tool_call_id).toBe('call_1');
    const envelope = JSON.parse(toolMessage.content) as Obj;
    expect(envelope.status).toBe('ok');
    expect(envelope.entries.length).toBeGreaterThan(0);
    for (const e of envelope.entries) expect(e.event_type).toBe('TURN_RECORDED');
    const recorded = records(runtime.recordPath).find((r) => r.type === 'message' && r.role === 'assistant' && r.tool_calls);
    expect((recorded as Obj).tool_calls).toEqual([{ id: 'call_1', name: 'query_ledger', arguments: args }]);
  });

  it('the folder question → list_files on the workspace', async () => {
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'list_files', arguments: { path: 'HOT' } }] }, { content: 'HOT holds the ledger folder.' }]);
    const runtime = await buildRuntime(setup('ask', fake.url));
    const result = await runtime.turn('what files are in the HOT directory?');
    await runtime.close();
    await fake.close();
    expect(result.terminalState).toBe('completed');
    const envelope = JSON.parse(result.toolOutcomes[0]!.content) as Obj;
    expect(envelope.status).toBe('ok');
    expect(JSON.stringify(envelope)).toContain('ledger');
  });

  it('a classify exchange (Anthropic wire, no tools offered) → the JSON result, in one step', async () => {
    // A real classify response: a governance EXCHANGE entry that ended with tool_use while no tools were offered.
    const ledger = readFileSync(join(FIXTURES, 'control-plane', 'normal', 'HOT', 'ledger', 'governance.jsonl'), 'utf8');
    const exchange = ledger
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Obj)
      .find((e) => e.event_type === 'EXCHANGE' && e.metadata.finish_reason === 'tool_use' && e.metadata.tools_offered === 0)!;
    const payload = JSON.parse(exchange.metadata.response as string) as Obj;
    const fake = await startFakeAnthropic([{ toolCalls: [{ name: 'output_json', arguments: payload }] }]);
    const env = envFor({ toolsAllowed: [] });
    const runtime = await buildRuntime({
      ...setup('ask', fake.url, { env, structuredOutput: { schema: { type: 'object', properties: { speech_act: { type: 'string' } } } } }, { provider: 'anthropic' }),
      env: { ...env, ANTHROPIC_API_KEY: 'sk-ant-test-key' },
    });
    const result = await runtime.turn('hello');
    await runtime.close();
    await fake.close();
    expect(result).toMatchObject({ terminalState: 'completed', steps: 1, toolCalls: 0 });
    expect(result.structuredOutput).toEqual(payload);
    expect(JSON.parse(result.finalContent!)).toEqual(payload);
    const body = fake.modelRequests[0]!.body as Obj;
    expect(body.tools.map((t: Obj) => t.name)).toEqual(['output_json']);
    expect(fake.modelRequests.length).toBe(1);
  });
});

describe('recovery recipes', () => {
  it('empty_response: the nudge, then the answer', async () => {
    const fake = await startFakeOpenAI([{ content: '' }, { content: 'Here is the answer.' }]);
    const runtime = await buildRuntime(setup('ask', fake.url));
    const result = await runtime.turn('what failed yesterday?');
    await runtime.close();
    await fake.close();
    expect(result).toMatchObject({ terminalState: 'completed', finalContent: 'Here is the answer.' });
    const nudge = (fake.modelRequests[1]!.body as Obj).messages.at(-1);
    expect(nudge).toMatchObject({ role: 'user', content: expect.stringMatching(/empty/) });
    expect(records(runtime.recordPath).filter((r) => r.type === 'recovery')).toEqual([expect.objectContaining({ scenario: 'empty_response', attempt: 1, recovered: true })]);
  });

  it('empty_response stops after its limit of 2', async () => {
    const fake = await startFakeOpenAI([{ content: '' }, { content: '' }, { content: '' }, { content: 'never asked' }]);
    const runtime = await buildRuntime(setup('ask', fake.url));
    await runtime.turn('anything?');
    await runtime.close();
    await fake.close();
    expect(fake.modelRequests.length).toBe(3);
    const recs = records(runtime.recordPath).filter((r) => r.type === 'recovery') as Obj[];
    expect(recs.map((r) => [r.attempt, r.recovered])).toEqual([[1, true], [2, true], [0, false]]);
  });

  it('bash_failure: the error output goes back to the model', async () => {
    const workspace = tempDir('hs-run-ws-');
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo broken-build >&2; exit 3' } }] }, { content: '' }, { content: 'Fixed it.' }]);
    const runtime = await buildRuntime(setup('run', fake.url, { cwd: workspace }, { workspace, allow: 'bash' }));
    const result = await runtime.turn('make the build pass');
    await runtime.close();
    await fake.close();
    expect(result.finalContent).toBe('Fixed it.');
    const nudge = (fake.modelRequests[2]!.body as Obj).messages.at(-1);
    expect(nudge.role).toBe('user');
    expect(nudge.content).toContain('broken-build');
    expect(records(runtime.recordPath).some((r) => r.type === 'recovery' && r.scenario === 'bash_failure')).toBe(true);
  });

  it('infinite_loop: the same call three times gets the steering nudge', async () => {
    const same = { toolCalls: [{ name: 'list_sessions', arguments: { limit: 1 } }] };
    const fake = await startFakeOpenAI([same, same, same, { content: '' }, { content: 'Stopped looping.' }]);
    const runtime = await buildRuntime(setup('ask', fake.url));
    const result = await runtime.turn('list sessions');
    await runtime.close();
    await fake.close();
    expect(result.finalContent).toBe('Stopped looping.');
    expect(records(runtime.recordPath).some((r) => r.type === 'recovery' && r.scenario === 'infinite_loop')).toBe(true);
  });
});

describe('context budget, compaction and handoff', () => {
  it('compacts when the conversation passes the window, and the record says which stage', async () => {
    const big = 'x '.repeat(6000);
    const fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'list_sessions', arguments: { limit: 50 } }] },
      { content: `first answer ${big}` },
      { content: 'second answer' },
    ]);
    const runtime = await buildRuntime(setup('chat', fake.url, { contextBudget: { contextWindowTokens: 6000, reservedOutputTokens: 500, keepRecentTokens: 1500 } }));
    await runtime.turn('list everything');
    const second = await runtime.turn('and now?');
    await runtime.close();
    await fake.close();
    expect(second.terminalState).toBe('completed');
    const compactions = records(runtime.recordPath).filter((r) => r.type === 'compaction') as Obj[];
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]!.tokens_after).toBeLessThan(compactions[0]!.tokens_before);
    // What was sent still pairs every tool call with its result.
    for (const req of fake.modelRequests) {
      const msgs = (req.body as Obj).messages as Obj[];
      const calls = new Set(msgs.flatMap((m) => (m.tool_calls ?? []).map((c: Obj) => c.id)));
      const results = new Set(msgs.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
      expect([...calls].sort()).toEqual([...results].sort());
    }
  });

  it('a conversation that cannot fit ends budget_exhausted, recovers once, then hands off to a child session', async () => {
    const fake = await startFakeOpenAI((request) => {
      const body = request.body as Obj;
      const system = body.messages[0].content as string;
      const last = body.messages.at(-1);
      // The child starts from the handoff manifest and answers; the parent only ever reads.
      if (String(last?.content ?? '').startsWith('# Handoff from session')) return { content: 'Child finished the task.' };
      void system;
      return { toolCalls: [{ name: 'read_file', arguments: { path: 'HOT/ledger/governance.jsonl', limit: 2000 } }] };
    });
    const runtime = await buildRuntime(
      setup('ask', fake.url, { contextBudget: { contextWindowTokens: 4000, reservedOutputTokens: 500, keepRecentTokens: 1000, maxSingleReadResultTokens: 50_000, maxTotalReadResultTokensPerTurn: 100_000 } }),
    );
    const result = await runtime.turn('read the governance ledger and tell me what happened');
    await runtime.close();
    await fake.close();
    expect(result.terminalState).toBe('handoff');
    expect(result.finalContent).toBe('Child finished the task.');
    expect(result.handoffSessionId).toBeDefined();
    const recs = records(runtime.recordPath);
    expect(recs.some((r) => r.type === 'recovery' && r.scenario === 'context_exhaustion')).toBe(true);
    expect(recs.find((r) => r.type === 'handoff')).toMatchObject({ child_session_id: result.handoffSessionId });
    expect(recs.at(-1)).toMatchObject({ type: 'turn_end', terminal_state: 'handoff' });
    const list = await call('list_sessions', { limit: 200, format: 'hindsight', top_level_only: false });
    const child = (list.sessions as Obj[]).find((s) => s.session_id === result.handoffSessionId);
    expect(child).toMatchObject({ kind: 'subagent', parent_id: runtime.sessionId });
  });
});

describe('stops and steering', () => {
  it('--budget: stops with budget_exhausted once the priced cost passes it', async () => {
    const usage = { inputTokens: 2_000_000, outputTokens: 10, cacheReadTokens: 0, cacheCreationTokens: 0, reasoningTokens: 0 };
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'list_sessions', arguments: {} }], usage, model: 'gpt-4o-mini' }, { content: 'never' }]);
    const runtime = await buildRuntime(setup('ask', fake.url, {}, { model: 'gpt-4o-mini', budget: '0.01' }));
    const result = await runtime.turn('how much did it cost?');
    await runtime.close();
    await fake.close();
    expect(result.terminalState).toBe('budget_exhausted');
    expect(result.costUsd).toBeGreaterThan(0.01);
    expect(fake.modelRequests.length).toBe(1);
  });

  it('--max-steps: step_limit when the model never stops calling tools', async () => {
    const fake = await startFakeOpenAI(() => ({ toolCalls: [{ name: 'list_sessions', arguments: { limit: Math.floor(Math.random() * 1000) } }] }));
    const runtime = await buildRuntime(setup('ask', fake.url, {}, { 'max-steps': '2' }));
    const result = await runtime.turn('loop');
    await runtime.close();
    await fake.close();
    expect(result).toMatchObject({ terminalState: 'step_limit', steps: 2 });
  });

  it('abort: a hanging provider call ends the turn as aborted', async () => {
    const fake = await startFakeOpenAI([{ kind: 'hang' }]);
    const controller = new AbortController();
    const runtime = await buildRuntime(setup('ask', fake.url, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    const result = await runtime.turn('this will hang');
    await runtime.close();
    await fake.close();
    expect(result.terminalState).toBe('aborted');
    expect(records(runtime.recordPath).at(-1)).toMatchObject({ type: 'turn_end', terminal_state: 'aborted' });
  });

  it('steering: a message injected after the tool results reaches the next request', async () => {
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'list_sessions', arguments: { limit: 2 } }] }, { content: 'Only the errored ones, then.' }]);
    let steered = false;
    const runtime = await buildRuntime(
      setup('ask', fake.url, {
        onSteeringCheck: () => {
          if (steered) return undefined;
          steered = true;
          return 'only the errored ones, please';
        },
      }),
    );
    const result = await runtime.turn('list sessions');
    await runtime.close();
    await fake.close();
    expect(result.finalContent).toBe('Only the errored ones, then.');
    expect((fake.modelRequests[1]!.body as Obj).messages.at(-1)).toEqual({ role: 'user', content: 'only the errored ones, please' });
    expect(records(runtime.recordPath).some((r) => r.type === 'message' && r.role === 'user' && (r as Obj).origin === 'steering')).toBe(true);
  });
});

describe('the coding agent', () => {
  it('the permission hook refuses write without --allow, and allows it with', async () => {
    const workspace = tempDir('hs-run-perm-');
    const script = () => [{ toolCalls: [{ name: 'write', arguments: { path: 'notes.txt', content: 'hello\n' } }] }, { content: 'Wrote it.' }];
    const denied = await startFakeOpenAI(script());
    const r1 = await buildRuntime(setup('run', denied.url, { cwd: workspace }, { workspace }));
    const first = await r1.turn('write notes.txt');
    await r1.close();
    await denied.close();
    expect(first.toolOutcomes[0]).toMatchObject({ name: 'write', isError: true, content: expect.stringContaining('--allow') });
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);

    const allowed = await startFakeOpenAI(script());
    const r2 = await buildRuntime(setup('run', allowed.url, { cwd: workspace }, { workspace, allow: 'write' }));
    const second = await r2.turn('write notes.txt');
    await r2.close();
    await allowed.close();
    expect(second.toolOutcomes[0]).toMatchObject({ name: 'write', isError: false });
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hello\n');
  });

  it('stays inside its workspace', async () => {
    const workspace = tempDir('hs-run-conf-');
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'read', arguments: { path: '../../etc/passwd' } }] }, { content: 'Could not.' }]);
    const runtime = await buildRuntime(setup('run', fake.url, { cwd: workspace }, { workspace }));
    const result = await runtime.turn('read /etc/passwd');
    await runtime.close();
    await fake.close();
    expect(result.toolOutcomes[0]!.isError).toBe(true);
    expect(result.toolOutcomes[0]!.content).not.toContain('root:');
  });

  it('memory saved in one turn is found in a later one (it outlives compaction), and only by this session', async () => {
    const workspace = tempDir('hs-run-mem-');
    const fake = await startFakeOpenAI([
      { toolCalls: [{ name: 'save_memory', arguments: { content: 'The tests need TZ=UTC', tags: ['testing'] } }] },
      { content: 'Saved.' },
      { toolCalls: [{ name: 'search_memory', arguments: { query: 'tests' } }] },
      { content: 'Use TZ=UTC.' },
    ]);
    const runtime = await buildRuntime(setup('run', fake.url, { cwd: workspace }, { workspace }));
    await runtime.turn('remember how tests run');
    const found = await runtime.turn('how do tests run?');
    await runtime.close();
    await fake.close();
    expect(found.toolOutcomes[0]!.content).toContain('TZ=UTC');
    const other = await startFakeOpenAI([{ toolCalls: [{ name: 'search_memory', arguments: { query: 'tests' } }] }, { content: 'Nothing.' }]);
    const stranger = await buildRuntime(setup('run', other.url, { cwd: workspace }, { workspace }));
    const none = await stranger.turn('how do tests run?');
    await stranger.close();
    await other.close();
    expect(none.toolOutcomes[0]!.content).not.toContain('TZ=UTC');
  });
});

describe('recorded sessions, read back by the tools', () => {
  it('session_overview and usage_report see the runtime session with the provider tokens', async () => {
    const usage = { inputTokens: 1200, outputTokens: 40, cacheReadTokens: 300, cacheCreationTokens: 0, reasoningTokens: 0 };
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'list_sessions', arguments: { limit: 3 } }], usage }, { content: 'Three sessions.', usage }]);
    const runtime = await buildRuntime(setup('ask', fake.url, {}, { model: 'gpt-4o-mini' }));
    await runtime.turn('how many sessions are there?');
    await runtime.close();
    await fake.close();
    const overview = await call('session_overview', { session_id: runtime.sessionId });
    expect(JSON.stringify(overview)).toContain('how many sessions are there?');
    const report = await call('usage_report', { group_by: 'session', format: 'hindsight', limit: 500 });
    const row = (report.rows as Obj[]).find((r) => JSON.stringify(r).includes(runtime.sessionId));
    expect(row).toBeDefined();
    expect(row).toMatchObject({ tokens: { input: 2400, output: 80, cache_read: 600, cache_write: 0 }, calls: 2, models: ['gpt-4o-mini'], format: 'hindsight' });
    // The report's cost is the price table's, as the runtime's own cost tracker computed it per step.
    const recordedCost = records(runtime.recordPath)
      .filter((r) => r.type === 'model_call')
      .reduce((sum, r) => sum + (r as Obj).cost_usd, 0);
    expect(row!.cost_usd).toBeCloseTo(recordedCost, 6);
  });

  it('chat --resume continues the recorded conversation in the same file', async () => {
    const env = envFor();
    const first = await startFakeOpenAI([{ content: 'The answer is 42.' }]);
    const r1 = await buildRuntime(setup('chat', first.url, { env }));
    await r1.turn('what is the answer?');
    await r1.close();
    await first.close();
    const second = await startFakeOpenAI([{ content: 'I said 42.' }]);
    const r2 = await buildRuntime(setup('chat', second.url, { env, resume: r1.sessionId.slice(0, 8) }));
    const result = await r2.turn('what did you say?');
    await r2.close();
    await second.close();
    expect(r2.sessionId).toBe(r1.sessionId);
    expect(r2.recordPath).toBe(r1.recordPath);
    expect(result.turn).toBe(2);
    const sent = (second.modelRequests[0]!.body as Obj).messages as Obj[];
    expect(sent.map((m) => m.content)).toEqual(expect.arrayContaining(['what is the answer?', 'The answer is 42.', 'what did you say?']));
  });

  it('exports as an OpenTelemetry trace like any other session: one chat span per model call, one execute_tool per tool call', async () => {
    const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'list_sessions', arguments: { limit: 2 } }] }, { content: 'Two sessions.' }]);
    const runtime = await buildRuntime(setup('ask', fake.url));
    await runtime.turn('list two sessions');
    await runtime.close();
    await fake.close();
    const exported = await call('export_session', { session_id: runtime.sessionId, format: 'otlp', max_bytes: 10_000_000 });
    const doc = JSON.parse(exported.content as string) as Obj;
    const spans = (doc.resourceSpans as Obj[]).flatMap((r) => (r.scopeSpans as Obj[]).flatMap((s) => s.spans as Obj[]));
    const names = spans.map((s) => s.name as string);
    expect(names.filter((n) => n.startsWith('chat '))).toHaveLength(2);
    expect(names.filter((n) => n === 'execute_tool list_sessions')).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('invoke_agent'))).toHaveLength(1);
    const root = spans.find((s) => String(s.name).startsWith('invoke_agent'))!;
    expect(JSON.stringify(root.attributes)).toContain('Hindsight');
  });
});
