// The Messages API client (official SDK) against the fake Anthropic server on loopback.

import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeScript, type FakeServer } from '../../../test/fake-providers/index.js';
import type { ChatDelta, ChatRequest } from '../model/chat.js';
import { createAnthropicMessagesClient, type AnthropicMessagesOptions } from './anthropic-messages.js';
import { ProviderError } from './errors.js';
import type { RetryNotice } from './retry.js';

const KEY = 'sk-ant-test-0123456789abcdefghijklmnop';
const FAST = { baseDelayMs: 1, maxDelayMs: 20, timeoutMs: 5_000 };
const servers: FakeServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(script: FakeScript, options: Partial<AnthropicMessagesOptions> = {}) {
  const fake = await startFakeAnthropic(script, { models: ['claude-a', 'claude-b'] });
  servers.push(fake);
  const retries: RetryNotice[] = [];
  const client = createAnthropicMessagesClient({
    providerId: 'anthropic',
    displayName: 'Anthropic',
    baseUrl: fake.url,
    model: 'claude-test',
    apiKey: KEY,
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    headers: { 'x-custom': 'yes' },
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

const READ_TOOL = { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } };

describe('anthropic-messages client', () => {
  it('streams text and thinking with exact usage; sends key, headers and the request shape', async () => {
    const { fake, client } = await setup([
      {
        reasoning: 'Let me think.',
        content: 'Paris is the capital.',
        usage: { inputTokens: 40, outputTokens: 25, cacheReadTokens: 100, cacheCreationTokens: 8, reasoningTokens: 6 },
      },
    ]);
    const deltas: ChatDelta[] = [];
    const res = await client.chat(ask({ onDelta: (d) => deltas.push(d) }));
    expect(res.content).toBe('Paris is the capital.');
    expect(res.reasoning).toBe('Let me think.');
    expect(res.finishReason).toBe('end_turn');
    expect(res.responseId).toBe('msg_fake1');
    expect(res.usage).toEqual({ inputTokens: 40, outputTokens: 25, cacheReadTokens: 100, cacheCreationTokens: 8, reasoningTokens: 6 });
    expect(deltas.filter((d) => d.type === 'content').map((d) => (d as { text: string }).text).join('')).toBe('Paris is the capital.');
    expect(deltas.filter((d) => d.type === 'reasoning').map((d) => (d as { text: string }).text).join('')).toBe('Let me think.');
    const req = fake.modelRequests[0]!;
    expect(req.path).toBe('/v1/messages');
    // SDK 1.x sends the key as a bearer token (older ones used x-api-key).
    expect(req.headers.authorization ?? req.headers['x-api-key']).toContain(KEY);
    expect(req.headers['x-custom']).toBe('yes');
    expect(req.body).toEqual({ model: 'claude-test', max_tokens: 8192, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true });
  });

  it('reads tool_use blocks (split input, no input) and maps a conversation: system apart, tool results merged', async () => {
    const { fake, client } = await setup([
      {
        content: 'Reading both.',
        toolCalls: [
          { id: 'toolu_1', name: 'read', arguments: { path: 'a.ts', lines: [1, 2] } },
          { id: 'toolu_2', name: 'list' },
        ],
        chunkSize: 4,
      },
      { content: 'Done.' },
    ]);
    const deltas: ChatDelta[] = [];
    const first = await client.chat(ask({ tools: [READ_TOOL], onDelta: (d) => deltas.push(d) }));
    expect(first.toolCalls).toEqual([
      { id: 'toolu_1', name: 'read', arguments: { path: 'a.ts', lines: [1, 2] } },
      { id: 'toolu_2', name: 'list', arguments: {} },
    ]);
    expect(first.finishReason).toBe('tool_use');
    expect(deltas.filter((d) => d.type === 'tool_call')).toEqual([
      { type: 'tool_call', index: 0, name: 'read' },
      { type: 'tool_call', index: 1, name: 'list' },
    ]);
    await client.chat({
      tools: [READ_TOOL],
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: first.content, reasoning: 'hidden', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'toolu_1', name: 'read', content: 'text of a' },
        { role: 'tool', toolCallId: 'toolu_2', name: 'list', content: 'no such dir', isError: true },
        { role: 'user', content: 'also check b' },
      ],
    });
    const body = fake.modelRequests[1]!.body as Record<string, unknown>;
    expect(body.system).toBe('be brief');
    expect(body.tools).toEqual([{ name: 'read', description: 'Read a file', input_schema: READ_TOOL.parameters }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts', lines: [1, 2] } },
          { type: 'tool_use', id: 'toolu_2', name: 'list', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'text of a' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no such dir', is_error: true },
          { type: 'text', text: 'also check b' },
        ],
      },
    ]);
  });

  it('offers structured output as a forced output_json tool', async () => {
    const { fake, client } = await setup([{ toolCalls: [{ id: 'toolu_o', name: 'output_json', arguments: { city: 'Paris' } }] }]);
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const res = await client.chat(ask({ structuredOutput: { schema } }));
    expect(res.toolCalls).toEqual([{ id: 'toolu_o', name: 'output_json', arguments: { city: 'Paris' } }]);
    const body = fake.modelRequests[0]!.body as Record<string, unknown>;
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'output_json' });
    expect(body.tools).toEqual([expect.objectContaining({ name: 'output_json', input_schema: schema })]);
  });

  it('reads a whole Message when streaming is off', async () => {
    const script: FakeScript = [{ content: 'Hi.', toolCalls: [{ id: 't1', name: 'read', arguments: { path: 'x' } }], usage: { inputTokens: 3, outputTokens: 4 } }];
    const { fake, client } = await setup(script, { stream: false });
    const res = await client.chat(ask());
    expect(fake.modelRequests[0]!.body).toMatchObject({ stream: false });
    expect(res).toMatchObject({
      content: 'Hi.',
      toolCalls: [{ id: 't1', name: 'read', arguments: { path: 'x' } }],
      finishReason: 'tool_use',
      usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 0, cacheCreationTokens: 0, reasoningTokens: 0 },
    });
  });

  it('lists models', async () => {
    const { client } = await setup([]);
    expect(await client.listModels!()).toEqual(['claude-a', 'claude-b']);
  });

  it('names ANTHROPIC_API_KEY, never the key, when the key is refused', async () => {
    const { client, fake } = await setup([
      { kind: 'raw', status: 401, headers: { 'x-should-retry': 'false' }, body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } } },
    ]);
    const err = await failure(client.chat(ask()));
    expect(err.kind).toBe('auth');
    expect(err.message).toContain('ANTHROPIC_API_KEY');
    expect(`${err.message} ${String(err.stack)} ${JSON.stringify(err)}`).not.toContain(KEY);
    expect(fake.modelRequests).toHaveLength(1);
  });

  it('maps 404 to unknown_model and "prompt is too long" to context_length', async () => {
    const { client } = await setup([
      { kind: 'raw', status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-test' }, request_id: 'req_1' } },
      { kind: 'raw', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } } },
    ]);
    const missing = await failure(client.chat(ask()));
    expect(missing.kind).toBe('unknown_model');
    expect(missing.message).toContain('"claude-test"');
    expect(missing.requestId).toBe('req_1');
    const long = await failure(client.chat(ask()));
    expect(long.kind).toBe('context_length');
  });

  it('retries a 529 overloaded and a 429 with Retry-After, then succeeds', async () => {
    const { client, retries, fake } = await setup([
      { kind: 'raw', status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_2' } },
      { kind: 'raw', status: 429, headers: { 'retry-after': '3' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } } },
      { content: 'finally' },
    ]);
    const res = await client.chat(ask());
    expect(res.content).toBe('finally');
    expect(fake.modelRequests).toHaveLength(3);
    expect(retries.map((r) => [r.error.kind, r.error.status])).toEqual([
      ['server', 529],
      ['rate_limited', 429],
    ]);
    expect(retries[1]!.error.retryAfterMs).toBe(3000);
  });

  it('turns an in-stream overloaded error event into a retryable server error', async () => {
    const errorStream =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_x","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":5,"output_tokens":1}}}\n\n' +
      'event: error\ndata: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"},"request_id":"req_3"}\n\n';
    const { client, retries } = await setup([{ kind: 'raw', status: 200, headers: { 'content-type': 'text/event-stream' }, body: errorStream }, { content: 'ok' }]);
    const res = await client.chat(ask());
    expect(res.content).toBe('ok');
    expect(retries.map((r) => r.error.kind)).toEqual(['server']);
  });

  it('retries a stream dropped mid-way', async () => {
    const { client, retries } = await setup([{ content: 'a long answer cut short', chunkSize: 3, dropAfterEvents: 4 }, { content: 'whole' }]);
    const res = await client.chat(ask());
    expect(res.content).toBe('whole');
    expect(retries.map((r) => r.error.kind)).toEqual(['network']);
  });

  it('times out and aborts', async () => {
    const slow = await setup([{ kind: 'hang' }], { retry: { ...FAST, timeoutMs: 150 } });
    expect((await failure(slow.client.chat(ask()))).kind).toBe('timeout');

    const { client, fake } = await setup([{ kind: 'hang' }, { content: 'never' }]);
    const controller = new AbortController();
    const pending = client.chat(ask({ signal: controller.signal }));
    while (fake.modelRequests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect((await failure(pending)).kind).toBe('aborted');
    expect(fake.modelRequests).toHaveLength(1);
  });
});
