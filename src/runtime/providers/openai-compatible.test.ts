// The Chat Completions client against the fake OpenAI server on loopback: text, native and
// text-parsed tool calls, deltas, exact usage, structured output, errors by kind, retries,
// timeouts, aborts, and the key never showing in an error.

import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeScript, type FakeServer } from '../../../test/fake-providers/index.js';
import type { ChatDelta, ChatRequest } from '../model/chat.js';
import { ProviderError } from './errors.js';
import { createOpenAICompatibleClient, type OpenAICompatibleOptions } from './openai-compatible.js';
import type { RetryNotice } from './retry.js';

const KEY = 'sk-test-0123456789abcdefghijklmnop';
const FAST = { baseDelayMs: 1, maxDelayMs: 20, timeoutMs: 5_000 };
const servers: FakeServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(script: FakeScript, options: Partial<OpenAICompatibleOptions> = {}) {
  const fake = await startFakeOpenAI(script, { models: ['m-one', 'm-two'] });
  servers.push(fake);
  const retries: RetryNotice[] = [];
  const client = createOpenAICompatibleClient({
    providerId: 'custom',
    displayName: 'Test server',
    baseUrl: fake.url,
    model: 'test-model',
    apiKey: KEY,
    apiKeyEnv: 'TEST_API_KEY',
    retry: FAST,
    onRetry: (n) => retries.push(n),
    ...options,
  });
  return { fake, client, retries };
}

const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ messages: [{ role: 'user', content: 'hi' }], tools: [], ...extra });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

const READ_TOOL = { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } };

describe('openai-compatible client', () => {
  it('streams text with deltas, usage exactly as sent, and the request in wire shape', async () => {
    const { fake, client } = await setup([
      { content: 'Hello there, world!', usage: { inputTokens: 30, cacheReadTokens: 12, outputTokens: 7, reasoningTokens: 2 }, chunkSize: 5 },
    ]);
    const deltas: ChatDelta[] = [];
    const res = await client.chat(ask({ onDelta: (d) => deltas.push(d), maxOutputTokens: 100 }));
    expect(res.content).toBe('Hello there, world!');
    expect(res.toolCalls).toEqual([]);
    expect(res.finishReason).toBe('stop');
    expect(res.usage).toEqual({ inputTokens: 30, outputTokens: 7, cacheReadTokens: 12, cacheCreationTokens: 0, reasoningTokens: 2 });
    expect(res.model).toBe('test-model');
    expect(res.responseId).toBe('chatcmpl-fake1');
    expect(deltas.filter((d) => d.type === 'content').map((d) => (d as { text: string }).text)).toEqual(['Hello', ' ther', 'e, wo', 'rld!']);
    const req = fake.modelRequests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toEqual({
      model: 'test-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
    });
  });

  it('reads native tool calls (parallel, split arguments, no arguments) and maps a conversation back', async () => {
    const { fake, client } = await setup([
      {
        content: 'Reading.',
        toolCalls: [
          { id: 'call_a', name: 'read', arguments: { path: 'src/a.ts' } },
          { id: 'call_b', name: 'list', arguments: '' },
        ],
        chunkSize: 3,
      },
      { content: 'Done.' },
    ]);
    const deltas: ChatDelta[] = [];
    const first = await client.chat(ask({ tools: [READ_TOOL], onDelta: (d) => deltas.push(d) }));
    expect(first.toolCalls).toEqual([
      { id: 'call_a', name: 'read', arguments: { path: 'src/a.ts' } },
      { id: 'call_b', name: 'list', arguments: {} },
    ]);
    expect(first.finishReason).toBe('tool_calls');
    expect(deltas.filter((d) => d.type === 'tool_call')).toEqual([
      { type: 'tool_call', index: 0, name: 'read' },
      { type: 'tool_call', index: 1, name: 'list' },
    ]);
    await client.chat({
      tools: [READ_TOOL],
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: first.content, reasoning: 'thought', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'call_a', name: 'read', content: 'file text' },
        { role: 'tool', toolCallId: 'call_b', name: 'list', content: 'a.ts', isError: true },
      ],
    });
    const body = fake.modelRequests[1]!.body as Record<string, unknown>;
    expect(body.tools).toEqual([{ type: 'function', function: READ_TOOL }]);
    expect(body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":"src/a.ts"}' } },
          { id: 'call_b', type: 'function', function: { name: 'list', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'file text' },
      { role: 'tool', tool_call_id: 'call_b', content: 'a.ts' },
    ]);
  });

  it('keeps arguments that are not JSON as their raw text', async () => {
    const { client } = await setup([{ toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"cmd": "ls' }] }]);
    const res = await client.chat(ask());
    expect(res.toolCalls[0]!.arguments).toBe('{"cmd": "ls');
  });

  it('reads reasoning deltas and the non-streaming JSON path', async () => {
    const script: FakeScript = [{ reasoning: 'Think first.', content: 'Answer.', usage: { inputTokens: 5, outputTokens: 9, reasoningTokens: 4 } }];
    const streamed = await setup(script);
    const deltas: ChatDelta[] = [];
    const a = await streamed.client.chat(ask({ onDelta: (d) => deltas.push(d) }));
    expect(a.reasoning).toBe('Think first.');
    expect(deltas.some((d) => d.type === 'reasoning')).toBe(true);
    const whole = await setup(script, { stream: false });
    const b = await whole.client.chat(ask());
    expect(whole.fake.modelRequests[0]!.body).toMatchObject({ stream: false });
    expect((whole.fake.modelRequests[0]!.body as Record<string, unknown>).stream_options).toBeUndefined();
    expect(b).toEqual({ ...a, responseId: b.responseId });
    expect(b.usage).toEqual({ inputTokens: 5, outputTokens: 9, cacheReadTokens: 0, cacheCreationTokens: 0, reasoningTokens: 4 });
  });

  it('asks for structured output as a json_schema response_format', async () => {
    const { fake, client } = await setup([{ content: '{"city":"Paris"}' }]);
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const res = await client.chat(ask({ structuredOutput: { name: 'answer', schema } }));
    expect(JSON.parse(res.content!)).toEqual({ city: 'Paris' });
    expect((fake.modelRequests[0]!.body as Record<string, unknown>).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema } });
  });

  it('with a --parser, reads calls out of the text, mints ids and never streams the markup', async () => {
    const text = 'Let me look.\n<tool_call>\n{"name": "read", "arguments": {"path": "a.txt"}}\n</tool_call>';
    const { client } = await setup([{ content: text, chunkSize: 4 }, { content: 'plain answer' }], { parser: 'hermes' });
    const deltas: ChatDelta[] = [];
    const res = await client.chat(ask({ tools: [READ_TOOL], onDelta: (d) => deltas.push(d) }));
    expect(res.toolCalls).toEqual([{ id: 'call_1', name: 'read', arguments: { path: 'a.txt' } }]);
    expect(res.content).toBe('Let me look.\n');
    expect(res.parseErrors).toEqual([]);
    const shown = deltas.filter((d) => d.type === 'content').map((d) => (d as { text: string }).text).join('');
    expect(shown).not.toContain('<tool_call>');
    expect(shown).toContain('Let me look.');
    expect(deltas).toContainEqual({ type: 'tool_call', index: 0, name: 'read' });
    const plain = await client.chat(ask());
    expect(plain.content).toBe('plain answer');
    expect(plain.toolCalls).toEqual([]);
  });

  it('lists models', async () => {
    const { client, fake } = await setup([]);
    expect(await client.listModels!()).toEqual(['m-one', 'm-two']);
    expect(fake.requests[0]!.path).toBe('/v1/models');
  });

  it('names the env var (never the key) when the key is refused', async () => {
    const { client, fake } = await setup([
      { kind: 'raw', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } },
    ]);
    const err = await failure(client.chat(ask()));
    expect(err.kind).toBe('auth');
    expect(err.status).toBe(401);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('TEST_API_KEY');
    expect(`${err.message} ${String(err.stack)} ${JSON.stringify(err)}`).not.toContain(KEY);
    expect(fake.modelRequests).toHaveLength(1);
  });

  it('names the model and base URL for an unknown model', async () => {
    const { client, fake } = await setup([
      { kind: 'raw', status: 404, body: { error: { code: 'model_not_found', message: 'The model `test-model` does not exist', type: 'invalid_request_error', param: null } } },
    ]);
    const err = await failure(client.chat(ask()));
    expect(err.kind).toBe('unknown_model');
    expect(err.message).toContain('"test-model"');
    expect(err.message).toContain(fake.url);
  });

  it('reports a prompt that is too long as context_length', async () => {
    const { client } = await setup([
      {
        kind: 'raw',
        status: 400,
        body: { error: { message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } },
      },
    ]);
    const err = await failure(client.chat(ask()));
    expect(err.kind).toBe('context_length');
    expect(err.retryable).toBe(false);
  });

  it('retries a 500 and then succeeds', async () => {
    const { client, fake, retries } = await setup([{ kind: 'raw', status: 500, body: { error: { message: 'boom', type: 'server_error' } } }, { content: 'ok' }]);
    const res = await client.chat(ask());
    expect(res.content).toBe('ok');
    expect(fake.modelRequests).toHaveLength(2);
    expect(retries.map((r) => [r.attempt, r.error.kind])).toEqual([[1, 'server']]);
  });

  it('honours Retry-After on a 429 (capped by maxDelayMs)', async () => {
    const { client, retries } = await setup([
      { kind: 'raw', status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } },
      { content: 'after the wait' },
    ]);
    const res = await client.chat(ask());
    expect(res.content).toBe('after the wait');
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error.kind).toBe('rate_limited');
    expect(retries[0]!.error.retryAfterMs).toBe(7000);
    expect(retries[0]!.delayMs).toBe(20);
  });

  it('gives up after maxRetries', async () => {
    const busy = { kind: 'raw' as const, status: 503, body: 'upstream unavailable' };
    const { client, fake } = await setup([busy, busy, busy], { retry: { ...FAST, maxRetries: 2 } });
    const err = await failure(client.chat(ask()));
    expect(err.kind).toBe('server');
    expect(err.status).toBe(503);
    expect(fake.modelRequests).toHaveLength(3);
  });

  it('treats a stream dropped mid-way as a retryable network error, then succeeds', async () => {
    const { client, retries } = await setup([{ content: 'partial answer that never ends', chunkSize: 4, dropAfterEvents: 3 }, { content: 'whole' }]);
    const res = await client.chat(ask());
    expect(res.content).toBe('whole');
    expect(retries.map((r) => r.error.kind)).toEqual(['network']);
    expect(retries[0]!.error.message).toContain('closed the response stream');
  });

  it('treats a body cut inside an event as a dropped stream', async () => {
    const cut = { kind: 'raw' as const, status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"hel', dropAfterBytes: 40 };
    const { client } = await setup([cut], { retry: { ...FAST, maxRetries: 0 } });
    const err = await failure(client.chat(ask()));
    expect(err.kind).toBe('network');
    expect(err.retryable).toBe(true);
  });

  it('turns an error inside a 200 stream into its kind (OpenRouter numeric code), retried when it may be', async () => {
    const midStream =
      'data: {"id":"gen-1","choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n' +
      'data: {"id":"gen-1","error":{"code":502,"message":"Upstream provider error"},"choices":[{"index":0,"delta":{},"finish_reason":"error"}]}\n\n';
    const { client, retries } = await setup([{ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, body: midStream }, { content: 'Hello' }]);
    const res = await client.chat(ask());
    expect(res.content).toBe('Hello');
    expect(retries.map((r) => [r.error.kind, r.error.status])).toEqual([['server', 502]]);
  });

  it('times out a server that never answers', async () => {
    const { client } = await setup([{ kind: 'hang' }], { retry: { ...FAST, timeoutMs: 150 } });
    const err = await failure(client.chat(ask()));
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('150 ms');
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    const { client, fake } = await setup([{ kind: 'hang' }, { content: 'never asked' }]);
    const controller = new AbortController();
    const pending = client.chat(ask({ signal: controller.signal }));
    while (fake.modelRequests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const err = await failure(pending);
    expect(err.kind).toBe('aborted');
    expect(fake.modelRequests).toHaveLength(1);
  });

  it('reports a refused connection as a network error naming the base URL', async () => {
    const { fake } = await setup([]);
    const url = fake.url;
    await fake.close();
    servers.length = 0;
    const client = createOpenAICompatibleClient({ providerId: 'vllm', displayName: 'vLLM', baseUrl: url, model: 'm', retry: { ...FAST, maxRetries: 0 } });
    const err = await failure(client.chat(ask()));
    expect(err.kind).toBe('network');
    expect(err.message).toContain(url);
  });
});
