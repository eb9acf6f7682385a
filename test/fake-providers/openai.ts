// A fake Chat Completions server speaking OpenAI's wire format as recorded in
// ../shared/fixtures/provider-streams: every chunk carries service_tier, system_fingerprint,
// obfuscation and "usage":null; the first delta has role, content "" and refusal null; a tool
// call starts with id, type, name and arguments "" and its arguments follow in pieces; the finish
// chunk has an empty delta; with stream_options.include_usage a last chunk has choices [] and the
// usage; then `data: [DONE]`. JSON bodies are pretty-printed and end with a newline.

import { startFakeServer, type FakeProtocol, type RenderedReply } from './server.js';
import { argumentsText, defaultUsage, pieces, type FakeReply, type FakeScript, type FakeServer, type FakeServerOptions, type RecordedRequest } from './script.js';

const CREATED = 1_767_225_600; // a fixed time: recorded requests and replies stay deterministic

function openAIUsage(reply: FakeReply): Record<string, unknown> {
  const u = defaultUsage(reply);
  const prompt = u.inputTokens + u.cacheReadTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.outputTokens,
    total_tokens: prompt + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function finishReasonOf(reply: FakeReply): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
}

function modelOf(reply: FakeReply, request: RecordedRequest): string {
  const asked = (request.body as { model?: unknown } | null)?.model;
  return reply.model ?? (typeof asked === 'string' ? asked : 'fake-model');
}

export function renderOpenAIStream(reply: FakeReply, request: RecordedRequest, index: number): string[] {
  const id = reply.id ?? `chatcmpl-fake${index + 1}`;
  const model = modelOf(reply, request);
  const size = reply.chunkSize ?? 8;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model,
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage: null,
      obfuscation: 'xyz',
    })}\n\n`;
  const parts = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (reply.reasoning) for (const p of pieces(reply.reasoning, size)) parts.push(chunk({ reasoning_content: p }));
  if (reply.content) for (const p of pieces(reply.content, size)) parts.push(chunk({ content: p }));
  (reply.toolCalls ?? []).forEach((call, i) => {
    parts.push(
      chunk({
        content: null,
        refusal: null,
        tool_calls: [{ index: i, id: call.id ?? `call_fake${index + 1}_${i}`, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    const args = argumentsText(call);
    if (args) for (const p of pieces(args, size)) parts.push(chunk({ tool_calls: [{ index: i, function: { arguments: p } }] }));
  });
  parts.push(chunk({}, finishReasonOf(reply)));
  const options = (request.body as { stream_options?: { include_usage?: unknown } } | null)?.stream_options;
  if (reply.usage !== null && options?.include_usage === true) {
    parts.push(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: CREATED, model, service_tier: 'default', system_fingerprint: 'fp_fake', choices: [], usage: openAIUsage(reply), obfuscation: 'xyz' })}\n\n`,
    );
  }
  parts.push('data: [DONE]\n\n');
  return parts;
}

export function renderOpenAIJson(reply: FakeReply, request: RecordedRequest, index: number): string {
  const calls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_fake${index + 1}_${i}`,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) || '{}' },
  }));
  const message: Record<string, unknown> = { role: 'assistant', content: reply.content ?? null };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (calls.length > 0) message.tool_calls = calls;
  message.refusal = null;
  message.annotations = [];
  const body: Record<string, unknown> = {
    id: reply.id ?? `chatcmpl-fake${index + 1}`,
    object: 'chat.completion',
    created: CREATED,
    model: modelOf(reply, request),
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(reply) }],
  };
  if (reply.usage !== null) body.usage = openAIUsage(reply);
  body.service_tier = 'default';
  body.system_fingerprint = 'fp_fake';
  return `${JSON.stringify(body, null, 2)}\n`;
}

const OPENAI_PROTOCOL: FakeProtocol = {
  basePath: '/v1',
  isModelRequest: (method, path) => method === 'POST' && path.endsWith('/chat/completions'),
  isModelListing: (method, path) => method === 'GET' && (path === '/models' || path === '/v1/models'),
  renderModels: (models) => ({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'fake' })) }),
  renderReply(reply, request, index): RenderedReply {
    const stream = (request.body as { stream?: unknown } | null)?.stream === true;
    if (stream) {
      return {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' },
        parts: renderOpenAIStream(reply, request, index),
      };
    }
    return { status: 200, headers: { 'content-type': 'application/json' }, parts: [renderOpenAIJson(reply, request, index)] };
  },
};

/**
 * A fake OpenAI-compatible server on 127.0.0.1 (random port). `url` is the base URL (…/v1).
 *
 * @example
 * const fake = await startFakeOpenAI([{ content: 'hello' }, { toolCalls: [{ name: 'read', arguments: { path: 'a' } }] }]);
 * // … createOpenAICompatibleClient({ providerId: 'custom', baseUrl: fake.url, model: 'm' }) …
 * await fake.close();
 */
export function startFakeOpenAI(script: FakeScript, options: FakeServerOptions = {}): Promise<FakeServer> {
  return startFakeServer(OPENAI_PROTOCOL, script, options.models ?? ['fake-model']);
}
