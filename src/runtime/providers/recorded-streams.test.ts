// Every recorded provider response in ../shared/fixtures/provider-streams, replayed byte for byte
// by the fake servers and read by the matching client: nothing lost (all text and thinking, every
// tool call with its arguments, usage numbers, finish reason), every error its kind.

import { afterAll, describe, expect, it } from 'vitest';
import { recordedFixtures, startFakeAnthropic, startFakeOpenAI, type FakeRaw, type FakeServer } from '../../../test/fake-providers/index.js';
import type { ChatResponse, ModelClient, ProviderUsage, ToolCallRequest } from '../model/chat.js';
import { createAnthropicMessagesClient } from './anthropic-messages.js';
import { ProviderError, type ProviderErrorKind } from './errors.js';
import { createOpenAICompatibleClient } from './openai-compatible.js';

type Expected =
  | { error: ProviderErrorKind; status: number | null; retryable: boolean }
  | {
      /** Exact text, or its start and length when long. */
      content: string | null | { startsWith: string; length: number };
      reasoningLength?: number;
      toolCalls: ToolCallRequest[];
      usage: [input: number, output: number, cacheRead: number, cacheCreation: number, reasoning: number] | null;
      finishReason: string;
      responseId: string;
      model: string;
    };

const u = (...n: [number, number, number, number, number]) => n;

/** Checked by eye against the files; the comments name the quirk each one carries. */
const EXPECTED: Record<string, Expected[]> = {
  // Parallel calls at index 0 and 1, arguments "{}" whole in one delta.
  'openai/pydantic-ai__chat-stream-parallel-tool-calls.yaml': [
    {
      content: null,
      toolCalls: [
        { id: 'call_q2UyBRP7eXNTzAoR8lEhjc9Z', name: 'get_country', arguments: {} },
        { id: 'call_b51ijcpFkDiTQG1bQzsrmtW5', name: 'get_product_name', arguments: {} },
      ],
      usage: u(364, 40, 0, 0, 0),
      finishReason: 'tool_calls',
      responseId: 'chatcmpl-C2QD1kGWsTW5OWiqAtOSFEAOfPfQH',
      model: 'gpt-4o-2024-08-06',
    },
    {
      content: null,
      toolCalls: [{ id: 'call_LwxJUB9KppVyogRRLQsamRJv', name: 'get_weather', arguments: { city: 'Mexico City' } }],
      usage: u(423, 15, 0, 0, 0),
      finishReason: 'tool_calls',
      responseId: 'chatcmpl-C2QD2NQfRbWW5ww5we2oDjS1mgHtK',
      model: 'gpt-4o-2024-08-06',
    },
    {
      content: null,
      toolCalls: [
        {
          id: 'call_CCGIWaMeYWmxOQ91orkmTvzn',
          name: 'final_result',
          arguments: {
            answers: [
              { label: 'Capital', answer: 'The capital of Mexico is Mexico City.' },
              { label: 'Weather', answer: 'The weather in Mexico City is currently sunny.' },
              { label: 'Product Name', answer: 'The product name is Pydantic AI.' },
            ],
          },
        },
      ],
      usage: u(448, 62, 0, 0, 0),
      finishReason: 'tool_calls',
      responseId: 'chatcmpl-C2QD4vblfNcSDeoXmULJR4umoKNqY',
      model: 'gpt-4o-2024-08-06',
    },
  ],
  // First tool delta: content null, refusal null, arguments ""; final usage chunk with choices [].
  'openai/pydantic-ai__chat-stream-tool-call-include-usage.yaml': [
    {
      content: null,
      toolCalls: [{ id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj', name: 'get_capital', arguments: { country: 'UK' } }],
      usage: u(53, 15, 0, 0, 0),
      finishReason: 'tool_calls',
      responseId: 'chatcmpl-Dx0XpqH8w09uBXwq1zFGYdETjtnEl',
      model: 'gpt-4o-mini-2024-07-18',
    },
    {
      content: 'The capital of the UK is London.',
      toolCalls: [],
      usage: u(78, 9, 0, 0, 0),
      finishReason: 'stop',
      responseId: 'chatcmpl-Dx0Xq5Xx9rHB2ehcHZCRDsnuymUXc',
      model: 'gpt-4o-mini-2024-07-18',
    },
  ],
  // Pretty-printed non-stream JSON, three turns.
  'openai/simonw-llm__chat-json-tool-calls-gzip.yaml': [
    {
      content: null,
      toolCalls: [{ id: 'call_TTY8UFNo7rNCaOBUNtlRSvMG', name: 'lookup_population', arguments: { country: 'Crumpet' } }],
      usage: u(92, 17, 0, 0, 0),
      finishReason: 'tool_calls',
      responseId: 'chatcmpl-BWpGNGdPONTwxHkZVxbqctQSBDmTn',
      model: 'gpt-4o-mini-2024-07-18',
    },
    {
      content: null,
      toolCalls: [{ id: 'call_aq9UyiSFkzX6W8Ydc33DoI9Y', name: 'can_have_dragons', arguments: { population: 123124 } }],
      usage: u(118, 18, 0, 0, 0),
      finishReason: 'tool_calls',
      responseId: 'chatcmpl-BWpGQWkuvc0FZdZZjPz8eL1CdtBcF',
      model: 'gpt-4o-mini-2024-07-18',
    },
    { content: 'YES', toolCalls: [], usage: u(146, 3, 0, 0, 0), finishReason: 'stop', responseId: 'chatcmpl-BWpGTZY785VsZipCO0bAvF7Z7tjdA', model: 'gpt-4o-mini-2024-07-18' },
  ],
  // Arguments split over 11 deltas.
  'openai/simonw-llm__chat-stream-tool-call-usage.yaml': [
    {
      content: null,
      toolCalls: [{ id: 'call_1EYWDzueHEp8OsB8jJSEp7WB', name: 'multiply', arguments: { a: 1231, b: 2331 } }],
      usage: u(54, 20, 0, 0, 0),
      finishReason: 'tool_calls',
      responseId: 'chatcmpl-BWlJBDk2xe66hjff60joVYpXi1hh4',
      model: 'gpt-4o-mini-2024-07-18',
    },
    {
      content: 'The result of \\( 1231 \\times 2331 \\) is \\( 2,869,461 \\).',
      toolCalls: [],
      usage: u(87, 26, 0, 0, 0),
      finishReason: 'stop',
      responseId: 'chatcmpl-BWlJCN7VZTtSHROczp0AbrjFGhRMA',
      model: 'gpt-4o-mini-2024-07-18',
    },
  ],
  // ~300 tokens of text in many deltas.
  'openai/vercel-ai__chat-stream-text-usage.chunks.jsonl': [
    {
      content: { startsWith: '**Holiday Name:** Harmony Day\n\n**Date:** Celebrated annually', length: 1724 },
      toolCalls: [],
      usage: u(16, 300, 0, 0, 0),
      finishReason: 'stop',
      responseId: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
      model: 'gpt-4.1-nano-2025-04-14',
    },
  ],
  // Empty tool-call id (minted), total_tokens 109 > 35 + 12: 62 hidden reasoning tokens are output.
  'openai-compatible/pydantic-ai__gemini-openai-compat-tool-calls-without-id.yaml': [
    {
      content: null,
      toolCalls: [{ id: 'call_1', name: 'get_current_time', arguments: {} }],
      usage: u(35, 74, 0, 0, 62),
      finishReason: 'tool_calls',
      responseId: '3SE-aKjdCcCEz7IPxpqjCA',
      model: 'gemini-2.5-pro-preview-05-06',
    },
    {
      content: 'The current time is Noon.',
      toolCalls: [],
      usage: u(66, 34, 0, 0, 28),
      finishReason: 'stop',
      responseId: '3iE-aNK3EIGJz7IPt_mYoAs',
      model: 'gemini-2.5-pro-preview-05-06',
    },
  ],
  // `reasoning` field, `index` inside a non-stream tool call, content "".
  'openai-compatible/pydantic-ai__ollama-cloud-v1-tool-calls.yaml': [
    { content: 'Paris.', reasoningLength: 490, toolCalls: [], usage: u(134, 122, 0, 0, 0), finishReason: 'stop', responseId: 'chatcmpl-395', model: 'gpt-oss:20b' },
    {
      content: null,
      reasoningLength: 763,
      toolCalls: [{ id: 'call_o2vnpxrw', name: 'final_result', arguments: { city: 'Paris', country: 'France' } }],
      usage: u(206, 194, 0, 0, 0),
      finishReason: 'tool_calls',
      responseId: 'chatcmpl-273',
      model: 'gpt-oss:20b',
    },
  ],
  'openai-compatible/pydantic-ai__ollama-local-v1-json-reasoning.yaml': [
    {
      content: '{ "city": "Paris", "country": "France" }',
      reasoningLength: 508,
      toolCalls: [],
      usage: u(136, 15, 0, 0, 0),
      finishReason: 'stop',
      responseId: 'chatcmpl-150',
      model: 'qwen3:0.6b',
    },
  ],
  // First (only) call at index 1, an empty-arguments delta, no usage chunk.
  'openai-compatible/vercel-ai__gateway-stream-tool-call-index-1.sse': [
    {
      content: 'Reading it.',
      toolCalls: [{ id: 'toolu_sanitized', name: 'read_file', arguments: { path: 'a.txt' } }],
      usage: null,
      finishReason: 'tool_calls',
      responseId: 'msg_sanitized',
      model: 'claude-haiku-4-5-20251001',
    },
  ],
  // reasoning_content deltas, the whole call in one chunk, 306 of 307 prompt tokens cached,
  // 227 reasoning tokens only in total_tokens (560 = 307 + 26 + 227).
  'openai-compatible/vercel-ai__xai-stream-reasoning-tool-call.chunks.jsonl': [
    {
      content: null,
      reasoningLength: 1069,
      toolCalls: [{ id: 'call_79382389', name: 'weather', arguments: { location: 'San Francisco' } }],
      usage: u(1, 253, 306, 0, 227),
      finishReason: 'tool_calls',
      responseId: '7027d986-3c59-a37a-9a5f-50713e01c8a6',
      model: 'grok-3-mini',
    },
  ],
  'anthropic/dd-trace-py__messages-json-tool-use-gzip.yaml': [
    {
      content: { startsWith: '<thinking>\nThe get_weather tool is directly relevant', length: 455 },
      toolCalls: [{ id: 'toolu_01DYJo37oETVsCdLTTcCWcdq', name: 'get_weather', arguments: { location: 'San Francisco, CA' } }],
      usage: u(599, 152, 0, 0, 0),
      finishReason: 'tool_use',
      responseId: 'msg_01QA7vDgvzfZ1mU5o8nwfkri',
      model: 'claude-3-opus-20240229',
    },
  ],
  // Old usage shape (input/output only), input_json_delta in 5 pieces.
  'anthropic/dd-trace-py__messages-stream-tool-use.yaml': [
    {
      content: { startsWith: '<thinking>\nThe get_weather tool is relevant', length: 375 },
      toolCalls: [{ id: 'toolu_01DYJo37oETVsCdLTTcCWcdq', name: 'get_weather', arguments: { location: 'San Francisco, CA' } }],
      usage: u(599, 135, 0, 0, 0),
      finishReason: 'tool_use',
      responseId: 'msg_01RQXWh4UaLp6wsR9R8i8RZ3',
      model: 'claude-3-opus-20240229',
    },
  ],
  'anthropic/openllmetry__messages-stream-text-plus-2-tool-use.yaml': [
    {
      content: { startsWith: 'Certainly! I can help you with that information.', length: 175 },
      toolCalls: [
        { id: 'toolu_014x5X91kx3fvdhpLvwXZWE2', name: 'get_weather', arguments: { location: 'San Francisco, CA', unit: 'celsius' } },
        { id: 'toolu_0121kXsENLvoDZ72LCuAnCCz', name: 'get_time', arguments: { timezone: 'America/Los_Angeles' } },
      ],
      usage: u(506, 153, 0, 0, 0),
      finishReason: 'tool_use',
      responseId: 'msg_0138UNF3YbNp49KkqZtUBWqz',
      model: 'claude-3-5-sonnet-20240620',
    },
  ],
  // Four parallel tool_use blocks (non-stream), then the answer.
  'anthropic/pydantic-ai__messages-json-parallel-tool-use.yaml': [
    {
      content: "I'll help you find out who is the youngest by retrieving information about each family member. I'll retrieve their entity information to compare their ages.",
      toolCalls: [
        { id: 'toolu_0167cfEnoQaPviGdVXA95zcu', name: 'retrieve_entity_info', arguments: { name: 'Alice' } },
        { id: 'toolu_01EEe2V5HD1Ac4rKiUR4HD2T', name: 'retrieve_entity_info', arguments: { name: 'Bob' } },
        { id: 'toolu_01XFyAjstT3966qvRynZyVPo', name: 'retrieve_entity_info', arguments: { name: 'Charlie' } },
        { id: 'toolu_013mnQZbgtK2oe3Mo3XKJsx3', name: 'retrieve_entity_info', arguments: { name: 'Daisy' } },
      ],
      usage: u(423, 202, 0, 0, 0),
      finishReason: 'tool_use',
      responseId: 'msg_011S3wxtqL5CVescWqS3zeg2',
      model: 'claude-haiku-4-5-20251001',
    },
    {
      content: { startsWith: 'Based on the retrieved information, we can see the family relationships:', length: 340 },
      toolCalls: [],
      usage: u(771, 77, 0, 0, 0),
      finishReason: 'end_turn',
      responseId: 'msg_01JVqZPgDwmnyb2kKC3MwCVf',
      model: 'claude-haiku-4-5-20251001',
    },
  ],
  // Smallest complete stream; data lines padded before the closing brace; a ping.
  'anthropic/pydantic-ai__messages-stream-text-minimal.yaml': [
    { content: '2', toolCalls: [], usage: u(20, 5, 0, 0, 0), finishReason: 'end_turn', responseId: 'msg_018E1hg8GoVTGEKQY3ovMcSJ', model: 'claude-sonnet-4-5-20250929' },
  ],
  // thinking_delta + signature_delta, then text.
  'anthropic/pydantic-ai__messages-stream-thinking-signature.yaml': [
    {
      content: { startsWith: 'Here are the basic steps for safely crossing the street:', length: 1021 },
      reasoningLength: 202,
      toolCalls: [],
      usage: u(43, 282, 0, 0, 0),
      finishReason: 'end_turn',
      responseId: 'msg_01ALwQ87pTS7hH1PjSdC9wJD',
      model: 'claude-sonnet-4-20250514',
    },
  ],
  // Thinking, a tool_use with no arguments (one "" input_json_delta), caller field, thinking_tokens.
  'anthropic/simonw-llm-anthropic__messages-stream-thinking-tool-use-then-text.yaml': [
    {
      content: null,
      reasoningLength: 180,
      toolCalls: [{ id: 'toolu_01825dXWLSoJwCst1qTsiWdb', name: 'fixed_version', arguments: {} }],
      usage: u(598, 92, 0, 0, 53),
      finishReason: 'tool_use',
      responseId: 'msg_01JdU4xqNHXL9QCFWkwCDKGr',
      model: 'claude-haiku-4-5-20251001',
    },
    {
      content: { startsWith: 'The version is **0.32a0**.', length: 278 },
      toolCalls: [],
      usage: u(707, 89, 0, 0, 0),
      finishReason: 'end_turn',
      responseId: 'msg_01Qb3MMmP6RUjBckfsEVddrQ',
      model: 'claude-haiku-4-5-20251001',
    },
  ],
  'anthropic/vercel-ai__messages-json-tool-no-args.json': [
    {
      content: { startsWith: '<thinking>\nThe updateIssueList tool', length: 255 },
      toolCalls: [{ id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1', name: 'updateIssueList', arguments: {} }],
      usage: u(602, 93, 0, 0, 0),
      finishReason: 'tool_use',
      responseId: 'msg_01GCBaV8gyWAYgMVggRqZbuQ',
      model: 'claude-3-opus-20240229',
    },
  ],
  // Three pings mid-stream, a no-argument tool.
  'anthropic/vercel-ai__messages-stream-tool-no-args.chunks.jsonl': [
    {
      content: "I'll update the issue list for you.",
      toolCalls: [{ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: {} }],
      usage: u(565, 48, 0, 0, 0),
      finishReason: 'tool_use',
      responseId: 'msg_01GE2RKp1VYsPzdFs3sS9z5S',
      model: 'claude-sonnet-4-5-20250929',
    },
  ],
  'errors/dd-trace-py__anthropic-400-invalid_request_error.yaml': [{ error: 'bad_request', status: 400, retryable: false }],
  'errors/dd-trace-py__anthropic-401-authentication_error.yaml': [{ error: 'auth', status: 401, retryable: false }],
  // A 401 to a stream request is a JSON body, not SSE.
  'errors/dd-trace-py__openai-401-on-stream-request.yaml': [{ error: 'auth', status: 401, retryable: false }],
  'errors/dd-trace-py__openai-chat-401-invalid_api_key.yaml': [{ error: 'auth', status: 401, retryable: false }],
  'errors/pydantic-ai__anthropic-404-not_found_error.yaml': [{ error: 'unknown_model', status: 404, retryable: false }],
  'errors/pydantic-ai__openai-chat-404-model_not_found.yaml': [{ error: 'unknown_model', status: 404, retryable: false }],
  // OpenRouter's numeric code 429 with metadata.raw; recorded three times (the retries).
  'errors/pydantic-ai__openrouter-429.yaml': [
    { error: 'rate_limited', status: 429, retryable: true },
    { error: 'rate_limited', status: 429, retryable: true },
    { error: 'rate_limited', status: 429, retryable: true },
  ],
  'errors/vercel-ai__openai-insufficient_quota-body.json': [{ error: 'rate_limited', status: 429, retryable: false }],
  // An error event inside a 200 stream (Responses API framing).
  'errors/vercel-ai__openai-responses-stream-error-insufficient_quota.chunks.jsonl': [{ error: 'rate_limited', status: null, retryable: false }],
};

/** An independent reading of a recorded body: all text and thinking, by a plain line scan. */
function recordedText(step: FakeRaw): { content: string; reasoning: string } {
  const text = Buffer.from(step.body as Uint8Array | string).toString('utf8');
  let content = '';
  let reasoning = '';
  const isSse = (step.headers?.['content-type'] ?? '').includes('event-stream');
  const docs: unknown[] = isSse
    ? text.split('\n').filter((l) => l.startsWith('data:') && !l.includes('[DONE]')).map((l) => JSON.parse(l.slice(5)) as unknown)
    : [JSON.parse(text) as unknown];
  for (const doc of docs as Record<string, any>[]) {
    const delta = doc.choices?.[0]?.delta ?? doc.choices?.[0]?.message;
    if (delta) {
      content += delta.content ?? '';
      reasoning += delta.reasoning_content ?? delta.reasoning ?? '';
    }
    if (doc.delta?.type === 'text_delta') content += doc.delta.text;
    if (doc.delta?.type === 'thinking_delta') reasoning += doc.delta.thinking;
    if (Array.isArray(doc.content)) {
      for (const b of doc.content) if (b.type === 'text') content += b.text;
    }
  }
  return { content, reasoning };
}

function usageTuple(usage: ProviderUsage | null): number[] | null {
  return usage && [usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.cacheCreationTokens, usage.reasoningTokens];
}

const servers: FakeServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function clientFor(protocol: 'openai' | 'anthropic', steps: FakeRaw[]): Promise<ModelClient> {
  const fake = protocol === 'openai' ? await startFakeOpenAI(steps) : await startFakeAnthropic(steps);
  servers.push(fake);
  // A recorded JSON body answered a non-stream request: ask the same way.
  const stream = (steps[0]?.headers?.['content-type'] ?? '').includes('event-stream');
  const options = { providerId: 'replay', baseUrl: fake.url, model: 'replayed-model', apiKey: 'k-replay', stream, retry: { maxRetries: 0 } };
  return protocol === 'openai' ? createOpenAICompatibleClient(options) : createAnthropicMessagesClient(options);
}

describe('recorded provider responses', () => {
  const fixtures = recordedFixtures();

  it('covers every fixture file, each with expectations for each recorded response', () => {
    expect(fixtures).toHaveLength(28);
    expect(fixtures.map((f) => f.file).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const f of fixtures) expect([f.file, f.steps.length]).toEqual([f.file, EXPECTED[f.file]!.length]);
  });

  for (const fixture of fixtures) {
    it(`reads ${fixture.file} without loss`, async () => {
      const client = await clientFor(fixture.protocol, fixture.steps);
      for (const [i, expected] of EXPECTED[fixture.file]!.entries()) {
        const outcome: ChatResponse | ProviderError = await client.chat({ messages: [{ role: 'user', content: 'replay' }], tools: [] }).catch((e: unknown) => e as ProviderError);
        if ('error' in expected) {
          expect(outcome).toBeInstanceOf(ProviderError);
          const err = outcome as ProviderError;
          expect([err.kind, err.status, err.retryable]).toEqual([expected.error, expected.status, expected.retryable]);
          continue;
        }
        if (outcome instanceof Error) throw outcome;
        const res = outcome;
        const independent = recordedText(fixture.steps[i]!);
        expect(res.content ?? '').toBe(independent.content);
        expect(res.reasoning ?? '').toBe(independent.reasoning);
        if (expected.content !== null && typeof expected.content === 'object') {
          expect(res.content!.startsWith(expected.content.startsWith)).toBe(true);
          expect(res.content!.length).toBe(expected.content.length);
        } else {
          expect(res.content).toBe(expected.content);
        }
        expect(res.reasoning?.length ?? 0).toBe(expected.reasoningLength ?? 0);
        expect(res.toolCalls).toEqual(expected.toolCalls);
        expect(usageTuple(res.usage)).toEqual(expected.usage);
        expect(res.finishReason).toBe(expected.finishReason);
        expect(res.responseId).toBe(expected.responseId);
        expect(res.model).toBe(expected.model);
      }
    });
  }
});
