import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { SessionRow } from '../store/store.js';
import { readSyncState, updateSyncState } from '../sync/sync-state.js';
import { ingestPaths } from '../ingest/ingest.js';
import { assistantLine, makeConfigDir, SID, SLUG, text, userLine } from '../formats/claude-code/test-lines.js';
import { pushTraces } from './push.js';
import { readPushRecord } from './push-state.js';
import { GEN_AI } from './semconv.js';
import { allRows, corpusStore, usageBySession, type UsageRow } from './test-corpus.js';
import { startReceiver, type ReceivedSpan, type Receiver } from './test-otlp-receiver.js';

let store: SqliteStore;
let rows: SessionRow[];
let usage: Map<string, UsageRow>;
let receiver: Receiver;
const saved = { ...process.env };

beforeAll(async () => {
  ({ store } = await corpusStore());
  rows = await allRows(store);
  usage = await usageBySession(store);
}, 120_000);
afterAll(() => store.close());
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
  process.env = { ...saved };
});

const received = (): ReceivedSpan[] => receiver.requests.flatMap((r) => r.spans);

/** Per trace: the spans usage_report's figures are compared with. */
function checkTraces(spans: ReceivedSpan[]): void {
  const byTrace = new Map<string, ReceivedSpan[]>();
  for (const s of spans) (byTrace.get(s.traceId) ?? byTrace.set(s.traceId, []).get(s.traceId)!).push(s);
  // usage_report lists sessions with calls; a top-level session without any is a trace with no chat span.
  const tops = rows.filter((r) => r.parentId === null).length;
  expect(byTrace.size).toBe(tops);
  expect(tops).toBeGreaterThan(usage.size - 1);
  for (const trace of byTrace.values()) {
    const root = trace.filter((s) => s.parentSpanId === '');
    expect(root).toHaveLength(1);
    const id = root[0]!.attributes[GEN_AI.conversationId] as string;
    const row = usage.get(id) ?? { session_id: id, calls: 0, tokens: { input: 0, output: 0, cache_write: 0, cache_read: 0, reasoning: 0 } };
    const ids = new Set(trace.map((s) => s.spanId));
    for (const s of trace) if (s.parentSpanId !== '') expect(ids.has(s.parentSpanId), `${id} ${s.name}`).toBe(true);
    const chats = trace.filter((s) => s.attributes[GEN_AI.operationName] === 'chat');
    expect(chats.length, id).toBe(row.calls);
    const sum = (k: string) => chats.reduce((n, s) => n + ((s.attributes[k] as number | undefined) ?? 0), 0);
    expect(sum(GEN_AI.inputTokens), id).toBe(row.tokens.input + row.tokens.cache_read + row.tokens.cache_write);
    expect(sum(GEN_AI.cacheReadInputTokens), id).toBe(row.tokens.cache_read);
    expect(sum(GEN_AI.cacheCreationInputTokens), id).toBe(row.tokens.cache_write);
    expect(sum(GEN_AI.outputTokens), id).toBe(row.tokens.output + row.tokens.reasoning);
    for (const s of trace) expect(s.end >= s.start && s.start > 0n, s.name).toBe(true);
  }
}

describe('otel push to a loopback OTLP/HTTP receiver', () => {
  it('sends http/protobuf by default, with the headers of OTEL_EXPORTER_OTLP_HEADERS, and a second push sends nothing', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url.replace('/v1/traces', '');
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-team=hindsight,authorization=Bearer%20t0ken';
    const progress: number[] = [];
    const first = await pushTraces(store, { batchSpans: 200, onProgress: (p) => progress.push(p.sessionsDone) });
    const tops = rows.filter((r) => r.parentId === null).length;
    expect(first).toMatchObject({ endpoint: receiver.url, protocol: 'http/protobuf', sessions: tops, sent: tops, unchanged: 0 });
    expect(first.requests).toBeGreaterThan(1);
    expect(receiver.requests).toHaveLength(first.requests);
    for (const r of receiver.requests) {
      expect(r.contentType).toBe('application/x-protobuf');
      expect(r.headers['x-team']).toBe('hindsight');
      expect(r.headers.authorization).toBe('Bearer t0ken');
      expect(r.spans.length).toBeLessThanOrEqual(200);
    }
    expect(received()).toHaveLength(first.spans);
    checkTraces(received());
    expect(progress.at(-1)).toBe(tops);
    expect(received().find((s) => s.parentSpanId === '')!.service).toBeTruthy();

    const second = await pushTraces(store);
    expect(second).toMatchObject({ sent: 0, unchanged: tops, spans: 0, requests: 0 });
    expect(receiver.requests).toHaveLength(first.requests);
  });

  it('sends http/json to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, the same spans as protobuf', async () => {
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = receiver.url;
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = 'http/json';
    const summary = await pushTraces(store);
    expect(summary.protocol).toBe('http/json');
    for (const r of receiver.requests) expect(r.contentType).toBe('application/json');
    checkTraces(received());
  });

  it('retries a batch the endpoint answered 429 or 503, and stops at a refusal, keeping what was accepted', async () => {
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = receiver.url;
    receiver.failNext.push(429, 503);
    const summary = await pushTraces(store, { format: 'codex' });
    const codex = rows.filter((r) => r.format === 'codex' && r.parentId === null).length;
    expect(summary).toMatchObject({ sessions: codex, sent: codex });
    expect(receiver.requests).toHaveLength(1);
    expect(new Set(received().map((s) => s.traceId)).size).toBe(codex);

    receiver.failNext.push(400);
    await expect(pushTraces(store, { format: 'gemini' })).rejects.toThrow(/did not accept the traces/);
    const record = await readPushRecord(store, receiver.url);
    expect(Object.keys(record.sent)).toHaveLength(codex);
  });

  it('sends a session again when it changed, and keeps sync\'s document intact', async () => {
    const root = makeConfigDir({
      [`${SLUG}/${SID}.jsonl`]: [userLine('u1', null, 1, 'hello'), assistantLine('a1', 'u1', 2, { msg: 'm1', req: 'r1' }, [text('hi')], { input_tokens: 3, output_tokens: 1 })],
    });
    const { corpusStore: fresh } = await import('./test-corpus.js');
    const own = (await fresh()).store;
    try {
      process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = receiver.url;
      await updateSyncState(own, 'postgres://remote/x', (s) => (s.last_push = '2026-01-01T00:00:00.000Z'));
      await ingestPaths(own, [root]);
      const first = await pushTraces(own);
      expect(first.sent).toBeGreaterThan(1);
      expect((await pushTraces(own)).sent).toBe(0);
      const { appendFileSync } = await import('node:fs');
      appendFileSync(`${root}/projects/${SLUG}/${SID}.jsonl`, `${JSON.stringify(userLine('u2', 'a1', 3, 'again'))}\n${JSON.stringify(assistantLine('a2', 'u2', 4, { msg: 'm2', req: 'r2' }, [text('ok')], { input_tokens: 4, output_tokens: 2 }))}\n`);
      await ingestPaths(own, [root]);
      const before = receiver.requests.length;
      const again = await pushTraces(own);
      expect(again).toMatchObject({ sent: 1, unchanged: first.sent - 1 });
      const resent = receiver.requests.slice(before).flatMap((r) => r.spans);
      expect(resent.filter((s) => s.attributes[GEN_AI.operationName] === 'chat')).toHaveLength(2);
      expect(new Set(resent.map((s) => s.attributes[GEN_AI.conversationId]))).toEqual(new Set([SID]));
      // Sync still reads its own part of the shared document.
      expect((await readSyncState(own)).remotes['postgres://remote/x']!.last_push).toBe('2026-01-01T00:00:00.000Z');
    } finally {
      await own.close();
    }
  });
});
