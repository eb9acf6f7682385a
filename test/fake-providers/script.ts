// What a fake provider server is told to answer: one step per model request, in order.

/** A tool call the fake model makes. Arguments as an object, or text sent as is (broken JSON too). */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments?: Record<string, unknown> | string;
}

/**
 * Token counts, in the runtime's terms (ProviderUsage): the fakes spell them in each wire format
 * so that a correct client reads back exactly these numbers. OpenAI: prompt_tokens =
 * inputTokens + cacheReadTokens, cached_tokens = cacheReadTokens, reasoning inside completion.
 */
export interface FakeUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheCreationTokens?: number;
  reasoningTokens?: number;
}

/** A model response, rendered in the real wire format (SSE when the request streams, else JSON). */
export interface FakeReply {
  kind?: 'reply';
  content?: string;
  reasoning?: string;
  toolCalls?: FakeToolCall[];
  /** null: no usage block at all. Default: 10 input tokens, output ≈ characters / 4. */
  usage?: FakeUsage | null;
  /** Default: tool_calls / tool_use when there are calls, else stop / end_turn. */
  finishReason?: string;
  model?: string;
  id?: string;
  /** Text and argument deltas are cut into pieces of this many characters (default 8). */
  chunkSize?: number;
  /** Close the connection after this many SSE events: a stream dropped mid-way. */
  dropAfterEvents?: number;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** Exact bytes: error statuses, Retry-After, recorded fixture bodies, a body cut short. */
export interface FakeRaw {
  kind: 'raw';
  status?: number;
  headers?: Record<string, string>;
  /** A string or bytes go out as they are; anything else as JSON. */
  body?: string | Uint8Array | object;
  /** Send only this many bytes of the body, then destroy the connection. */
  dropAfterBytes?: number;
  delayMs?: number;
}

/** Never answer (until the client gives up or the server closes): for timeouts and aborts. */
export interface FakeHang {
  kind: 'hang';
}

export type FakeStep = FakeReply | FakeRaw | FakeHang;

/** What the fake saw: every request, model calls and model listings alike. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body; the text when it was not JSON; null for no body. */
  body: unknown;
}

/** Steps in order (one per model request), or a function choosing the step per request. */
export type FakeScript = readonly FakeStep[] | ((request: RecordedRequest, index: number) => FakeStep);

export interface FakeServerOptions {
  /** The ids GET /models lists (default ['fake-model']). */
  models?: readonly string[];
}

export interface FakeServer {
  /** OpenAI: http://127.0.0.1:<port>/v1 (a base URL). Anthropic: http://127.0.0.1:<port> (the SDK's baseURL). */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Only the model requests (chat/completions, messages), in order. */
  readonly modelRequests: RecordedRequest[];
  close(): Promise<void>;
}

export function isRaw(step: FakeStep): step is FakeRaw {
  return step.kind === 'raw';
}

export function defaultUsage(reply: FakeReply): Required<FakeUsage> {
  const chars = (reply.content ?? '').length + (reply.reasoning ?? '').length +
    (reply.toolCalls ?? []).reduce((n, c) => n + c.name.length + argumentsText(c).length, 0);
  return {
    inputTokens: reply.usage?.inputTokens ?? 10,
    outputTokens: reply.usage?.outputTokens ?? Math.max(1, Math.ceil(chars / 4)),
    cacheReadTokens: reply.usage?.cacheReadTokens ?? 0,
    cacheCreationTokens: reply.usage?.cacheCreationTokens ?? 0,
    reasoningTokens: reply.usage?.reasoningTokens ?? 0,
  };
}

export function argumentsText(call: FakeToolCall): string {
  if (call.arguments === undefined) return '';
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/** `text` in pieces of `size` characters (one empty piece for empty text). */
export function pieces(text: string, size: number): string[] {
  if (text.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
