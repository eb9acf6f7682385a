import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { assistantLine, makeConfigDir, SID, SLUG, text, toolResult, toolUse, userLine } from '../formats/claude-code/test-lines.js';
import { ingestPaths } from '../ingest/ingest.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { SessionRow } from '../store/store.js';
import { otlpJson } from './document.js';
import { GEN_AI, HINDSIGHT } from './semconv.js';
import { descendantRows, sessionTrace } from './session-trace.js';
import { allRows, corpusStore, usageBySession, type UsageRow } from './test-corpus.js';
import type { TraceSpan } from './trace-span.js';

let store: SqliteStore;
let rows: SessionRow[];
let usage: Map<string, UsageRow>;
const SECRET = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

beforeAll(async () => {
  ({ store } = await corpusStore());
  rows = await allRows(store);
  usage = await usageBySession(store);
}, 120_000);
afterAll(() => store.close());

const op = (s: TraceSpan) => s.attributes[GEN_AI.operationName];
const num = (s: TraceSpan, k: string) => (s.attributes[k] as number | undefined) ?? 0;
const trace = async (id: string, options = {}) => sessionTrace(store, rows.find((r) => r.id === id)!, await descendantRows(store, id), options);

describe('a session as a GenAI trace', () => {
  it('covers every format of the corpus', () => {
    expect(new Set(rows.map((r) => r.format))).toEqual(new Set(['claude-code', 'codex', 'gemini', 'control-plane']));
    expect(usage.size).toBeGreaterThan(5);
  });

  it('has one chat span per LLM call usage_report counts, with its token totals in the conventions\' meaning', async () => {
    const formats = new Set<string>();
    let calls = 0;
    for (const [id, row] of usage) {
      const spans = await trace(id);
      const chats = spans.filter((s) => op(s) === 'chat');
      expect(chats.length, id).toBe(row.calls);
      const sum = (k: string) => chats.reduce((n, s) => n + num(s, k), 0);
      const t = row.tokens;
      expect(sum(GEN_AI.inputTokens), id).toBe(t.input + t.cache_read + t.cache_write);
      expect(sum(GEN_AI.cacheReadInputTokens), id).toBe(t.cache_read);
      expect(sum(GEN_AI.cacheCreationInputTokens), id).toBe(t.cache_write);
      expect(sum(GEN_AI.outputTokens), id).toBe(t.output + t.reasoning);
      formats.add(rows.find((r) => r.id === id)!.format);
      calls += chats.length;
    }
    expect(formats).toEqual(new Set(['claude-code', 'codex', 'gemini', 'control-plane']));
    expect(calls).toBeGreaterThan(20);
  });

  it('gives every span but the root a parent in the trace, and one trace id per session', async () => {
    for (const id of usage.keys()) {
      const spans = await trace(id);
      const ids = new Set(spans.map((s) => s.spanId));
      expect(ids.size, id).toBe(spans.length);
      expect(spans.filter((s) => s.parentSpanId === null), id).toHaveLength(1);
      expect(spans[0]!.parentSpanId).toBeNull();
      for (const s of spans) if (s.parentSpanId !== null) expect(ids.has(s.parentSpanId), `${id} ${s.name}`).toBe(true);
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
      for (const s of spans) expect(s.start !== null && s.end !== null && s.start <= s.end, `${id} ${s.name}`).toBe(true);
    }
  });

  it('names the agent, provider and conversation from the format\'s own profile', async () => {
    const byFormat = (f: string) => rows.find((r) => r.format === f && r.parentId === null && usage.has(r.id))!;
    const expected: Record<string, [string, string]> = {
      'claude-code': ['Claude Code', 'anthropic'],
      codex: ['Codex', 'openai'],
      gemini: ['Gemini CLI', 'gcp.gemini'],
    };
    for (const [format, [agent, provider]] of Object.entries(expected)) {
      const row = byFormat(format);
      const [root] = await trace(row.id);
      expect(root!.name).toBe(`invoke_agent ${agent}`);
      expect(root!.service).toBe(agent);
      expect(root!.attributes).toMatchObject({
        [GEN_AI.operationName]: 'invoke_agent',
        [GEN_AI.agentName]: agent,
        [GEN_AI.providerName]: provider,
        [GEN_AI.conversationId]: row.id,
        [HINDSIGHT.format]: format,
      });
    }
    // Control Plane talks to several providers: each call's provider comes from its model.
    const plane = await trace(byFormat('control-plane').id);
    expect(plane[0]!.attributes[GEN_AI.agentName]).toBe('Control Plane');
    for (const s of plane.filter((x) => op(x) === 'chat')) expect(typeof s.attributes[GEN_AI.providerName]).toBe('string');
  });

  it('nests sub-agents as invoke_agent spans and marks failed tool calls', async () => {
    const parents = rows.filter((r) => r.parentId === null && r.childCount > 0 && usage.has(r.id));
    expect(parents.length).toBeGreaterThan(0);
    let nested = 0;
    for (const p of parents) {
      const spans = await trace(p.id);
      const agents = spans.filter((s) => op(s) === 'invoke_agent');
      expect(agents.length, p.id).toBe(1 + (await store.sessionDescendants(p.id)).length);
      nested += agents.filter((a) => spans.find((s) => s.spanId === a.parentSpanId && op(s) === 'execute_tool')).length;
      expect((await trace(p.id, { includeSubagents: false })).filter((s) => op(s) === 'invoke_agent')).toHaveLength(1);
    }
    // Claude Code's Task calls name the sub-agent they launched.
    expect(nested).toBeGreaterThan(0);
    let failed = 0;
    for (const id of usage.keys()) {
      for (const s of await trace(id)) {
        if (op(s) !== 'execute_tool') continue;
        expect(typeof s.attributes[GEN_AI.toolName]).toBe('string');
        if (s.error) {
          failed++;
          expect(s.attributes['error.type']).toBe('tool_error');
        }
      }
    }
    expect(failed).toBeGreaterThan(0);
  });

  it('gives the same ids and the same document when exported twice', async () => {
    const id = [...usage.keys()][0]!;
    const a = await trace(id);
    const b = await trace(id);
    expect(b.map((s) => [s.traceId, s.spanId, s.parentSpanId])).toEqual(a.map((s) => [s.traceId, s.spanId, s.parentSpanId]));
    expect(otlpJson(b)).toBe(otlpJson(a));
    const other = await trace([...usage.keys()][1]!);
    expect(other[0]!.traceId).not.toBe(a[0]!.traceId);
  });

  it('carries message content only when asked, redacted unless told otherwise', async () => {
    let withText = 0;
    for (const id of usage.keys()) {
      const plain = await trace(id);
      for (const s of plain) {
        expect(s.attributes[GEN_AI.inputMessages]).toBeUndefined();
        expect(s.attributes[GEN_AI.outputMessages]).toBeUndefined();
        expect(s.attributes[GEN_AI.toolCallArguments]).toBeUndefined();
      }
      const full = await trace(id, { includeContent: true });
      withText += full.filter((s) => s.attributes[GEN_AI.outputMessages] !== undefined).length;
      for (const s of full) {
        const out = s.attributes[GEN_AI.outputMessages];
        if (out !== undefined) expect(JSON.parse(out as string)[0]).toMatchObject({ role: 'assistant', parts: [{ type: 'text' }] });
      }
    }
    expect(withText).toBeGreaterThan(0);
  });

  it('redacts secrets in prompts, replies and tool arguments, and keeps them only when told', async () => {
    const root = makeConfigDir({
      [`${SLUG}/${SID}.jsonl`]: [
        userLine('u1', null, 1, `deploy with ${SECRET}`),
        assistantLine('a1', 'u1', 2, { msg: 'msg_1', req: 'req_1' }, [text(`I will use ${SECRET}`), toolUse('toolu_1', 'Bash', { command: `curl -H "x-api-key: ${SECRET}" example.test` })], { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100 }),
        userLine('u2', 'a1', 3, [toolResult('toolu_1', 'connection refused', true)]),
        assistantLine('a2', 'u2', 5, { msg: 'msg_2', req: 'req_2' }, [text('It failed.')], { input_tokens: 20, output_tokens: 3 }),
      ],
    });
    const own = new SqliteStore(join(tempDir('hs-otel-secret-'), 'store.db'));
    try {
      await ingestPaths(own, [root]);
      const row = (await own.getSession(SID))!;
      const redacted = await sessionTrace(own, row, [], { includeContent: true });
      const all = JSON.stringify(redacted);
      expect(all).not.toContain(SECRET);
      expect(all).toContain('[REDACTED');
      const chat = redacted.find((s) => s.name === 'chat claude-opus-4-6')!;
      expect(JSON.parse(chat.attributes[GEN_AI.inputMessages] as string)[0].parts[0].content).toMatch(/^deploy with \[REDACTED/);
      expect(chat.attributes).toMatchObject({ [GEN_AI.inputTokens]: 110, [GEN_AI.cacheReadInputTokens]: 100, [GEN_AI.outputTokens]: 5, [GEN_AI.responseId]: 'msg_1' });
      const tool = redacted.find((s) => s.name === 'execute_tool Bash')!;
      expect(tool.error).toEqual({ type: 'tool_error', message: 'connection refused' });
      expect(tool.attributes[GEN_AI.toolCallId]).toBe('toolu_1');
      expect(JSON.parse(tool.attributes[GEN_AI.toolCallArguments] as string).command).toContain('[REDACTED');
      expect(tool.start! < tool.end!).toBe(true);
      const raw = JSON.stringify(await sessionTrace(own, row, [], { includeContent: true, redact: false }));
      expect(raw).toContain(SECRET);
      expect(JSON.stringify(await sessionTrace(own, row, []))).not.toContain('deploy with');
    } finally {
      await own.close();
    }
  });
});
