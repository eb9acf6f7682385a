// A fake Messages API server speaking Anthropic's wire format as recorded in
// ../shared/fixtures/provider-streams: `event:`/`data:` pairs, data padded with spaces before the
// closing brace, a `ping` after the first block starts, message_start with stop_details,
// cache_creation, service_tier and inference_geo; thinking blocks opening with thinking ""
// and signature "", an empty last thinking_delta before the signature_delta; tool_use blocks
// with caller {type:'direct'} and input {} whose input arrives as input_json_delta pieces (one
// "" piece for a call without arguments); message_delta repeating input and cache counts.

import { startFakeServer, type FakeProtocol, type RenderedReply } from './server.js';
import { argumentsText, defaultUsage, pieces, type FakeReply, type FakeScript, type FakeServer, type FakeServerOptions, type RecordedRequest } from './script.js';

function event(type: string, data: Record<string, unknown>, pad = 4): string {
  const json = JSON.stringify({ type, ...data });
  // Real servers pad before the final brace; JSON readers must not care.
  return `event: ${type}\ndata: ${json.slice(0, -1)}${' '.repeat(pad)}}\n\n`;
}

function modelOf(reply: FakeReply, request: RecordedRequest): string {
  const asked = (request.body as { model?: unknown } | null)?.model;
  return reply.model ?? (typeof asked === 'string' ? asked : 'claude-fake');
}

function stopReasonOf(reply: FakeReply): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
}

function toolInput(args: string): unknown {
  try {
    return args ? (JSON.parse(args) as unknown) : {};
  } catch {
    return {};
  }
}

export function renderAnthropicStream(reply: FakeReply, request: RecordedRequest, index: number): string[] {
  const u = defaultUsage(reply);
  const size = reply.chunkSize ?? 8;
  const cacheCreation = { ephemeral_5m_input_tokens: u.cacheCreationTokens, ephemeral_1h_input_tokens: 0 };
  const parts = [
    event('message_start', {
      message: {
        model: modelOf(reply, request),
        id: reply.id ?? `msg_fake${index + 1}`,
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        usage: {
          input_tokens: u.inputTokens,
          cache_creation_input_tokens: u.cacheCreationTokens,
          cache_read_input_tokens: u.cacheReadTokens,
          cache_creation: cacheCreation,
          output_tokens: 1,
          service_tier: 'standard',
          inference_geo: 'not_available',
        },
      },
    }, 12),
  ];
  let block = 0;
  const ping = (): void => {
    if (block === 0) parts.push('event: ping\ndata: {"type": "ping"}\n\n');
  };
  if (reply.reasoning) {
    parts.push(event('content_block_start', { index: block, content_block: { type: 'thinking', thinking: '', signature: '' } }));
    ping();
    for (const p of pieces(reply.reasoning, size)) parts.push(event('content_block_delta', { index: block, delta: { type: 'thinking_delta', thinking: p } }));
    parts.push(event('content_block_delta', { index: block, delta: { type: 'thinking_delta', thinking: '' } }));
    parts.push(event('content_block_delta', { index: block, delta: { type: 'signature_delta', signature: `fakesig${index + 1}` } }));
    parts.push(event('content_block_stop', { index: block }));
    block++;
  }
  if (reply.content) {
    parts.push(event('content_block_start', { index: block, content_block: { type: 'text', text: '' } }));
    ping();
    for (const p of pieces(reply.content, size)) parts.push(event('content_block_delta', { index: block, delta: { type: 'text_delta', text: p } }));
    parts.push(event('content_block_stop', { index: block }));
    block++;
  }
  (reply.toolCalls ?? []).forEach((call, i) => {
    const id = call.id ?? `toolu_fake${index + 1}_${i}`;
    parts.push(event('content_block_start', { index: block, content_block: { type: 'tool_use', id, name: call.name, input: {}, caller: { type: 'direct' } } }));
    ping();
    for (const p of pieces(argumentsText(call), size)) {
      parts.push(event('content_block_delta', { index: block, delta: { type: 'input_json_delta', partial_json: p } }));
    }
    parts.push(event('content_block_stop', { index: block }));
    block++;
  });
  const usage: Record<string, unknown> = {
    input_tokens: u.inputTokens,
    cache_creation_input_tokens: u.cacheCreationTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    output_tokens: u.outputTokens,
  };
  if (u.reasoningTokens > 0) usage.output_tokens_details = { thinking_tokens: u.reasoningTokens };
  parts.push(event('message_delta', { delta: { stop_reason: stopReasonOf(reply), stop_sequence: null, stop_details: null }, usage }));
  parts.push(event('message_stop', {}));
  return parts;
}

export function renderAnthropicJson(reply: FakeReply, request: RecordedRequest, index: number): string {
  const u = defaultUsage(reply);
  const content: unknown[] = [];
  if (reply.reasoning) content.push({ type: 'thinking', thinking: reply.reasoning, signature: `fakesig${index + 1}` });
  if (reply.content) content.push({ type: 'text', text: reply.content });
  (reply.toolCalls ?? []).forEach((call, i) => {
    content.push({ type: 'tool_use', id: call.id ?? `toolu_fake${index + 1}_${i}`, name: call.name, input: toolInput(argumentsText(call)) });
  });
  const usage: Record<string, unknown> = {
    input_tokens: u.inputTokens,
    cache_creation_input_tokens: u.cacheCreationTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation: { ephemeral_5m_input_tokens: u.cacheCreationTokens, ephemeral_1h_input_tokens: 0 },
    output_tokens: u.outputTokens,
    service_tier: 'standard',
  };
  if (u.reasoningTokens > 0) usage.output_tokens_details = { thinking_tokens: u.reasoningTokens };
  return JSON.stringify({
    model: modelOf(reply, request),
    id: reply.id ?? `msg_fake${index + 1}`,
    type: 'message',
    role: 'assistant',
    content,
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage,
  });
}

const ANTHROPIC_PROTOCOL: FakeProtocol = {
  basePath: '',
  isModelRequest: (method, path) => method === 'POST' && path.endsWith('/messages'),
  isModelListing: (method, path) => method === 'GET' && (path === '/v1/models' || path === '/models'),
  renderModels: (models) => ({
    data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' })),
    has_more: false,
    first_id: models[0] ?? null,
    last_id: models[models.length - 1] ?? null,
  }),
  renderReply(reply, request, index): RenderedReply {
    const stream = (request.body as { stream?: unknown } | null)?.stream === true;
    const headers = { 'request-id': `req_fake${index + 1}` };
    if (stream) {
      return {
        status: 200,
        headers: { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
        parts: renderAnthropicStream(reply, request, index),
      };
    }
    return { status: 200, headers: { ...headers, 'content-type': 'application/json' }, parts: [renderAnthropicJson(reply, request, index)] };
  },
};

/**
 * A fake Anthropic Messages server on 127.0.0.1 (random port). `url` is the SDK's baseURL (no
 * /v1: the SDK adds /v1/messages).
 *
 * @example
 * const fake = await startFakeAnthropic([{ content: 'hello', usage: { inputTokens: 12, outputTokens: 3 } }]);
 */
export function startFakeAnthropic(script: FakeScript, options: FakeServerOptions = {}): Promise<FakeServer> {
  return startFakeServer(ANTHROPIC_PROTOCOL, script, options.models ?? ['claude-fake']);
}
