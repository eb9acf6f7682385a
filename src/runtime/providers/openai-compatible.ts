// A ModelClient for the Chat Completions protocol (OpenAI, OpenRouter, DeepSeek, Groq, vLLM,
// llama.cpp, Ollama): POST {baseUrl}/chat/completions over fetch, streamed as SSE with the usage
// chunk asked for, or one JSON body when streaming is off.

import type { ProviderClientOptions } from './client-options.js';
import type { ChatDelta, ChatRequest, ChatResponse, ModelClient } from '../model/chat.js';
import { badResponseError, droppedStreamError, errorFromHttp, ProviderError, type ProviderErrorContext } from './errors.js';
import { openAIRequestBody } from './openai-wire.js';
import { OpenAIStreamAccumulator, readOpenAIJson, type RawOpenAIResponse } from './openai-response.js';
import { createIdMinter } from './tool-arguments.js';
import { DEFAULT_RETRY_POLICY, withRetries, type Attempt, type RetryPolicy } from './retry.js';
import { readSseEvents } from './sse.js';
import { applyTextParser, ParsedDeltaFilter } from './text-tool-calls.js';

/** baseUrl runs up to and including the version segment: http://127.0.0.1:8000/v1, https://api.openai.com/v1. */
export interface OpenAICompatibleOptions extends ProviderClientOptions {
  /** Sent as `Authorization: Bearer …` unless `headers` carries its own Authorization. */
  apiKey?: string | null;
  /** A parser id (src/runtime/parsers) for servers that return tool calls as text. */
  parser?: string | null;
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  fetch?: typeof fetch;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function requestHeaders(options: OpenAICompatibleOptions, accept: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept, ...(options.headers ?? {}) };
  const hasAuth = Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
  if (options.apiKey && !hasAuth) headers.authorization = `Bearer ${options.apiKey}`;
  return headers;
}

/**
 * @example
 * const client = createOpenAICompatibleClient({ providerId: 'vllm', baseUrl: 'http://127.0.0.1:8000/v1', model: 'qwen3' });
 * const answer = await client.chat({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
 */
export function createOpenAICompatibleClient(options: OpenAICompatibleOptions): ModelClient {
  const baseUrl = trimSlash(options.baseUrl);
  const fetchImpl = options.fetch ?? fetch;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const stream = options.stream ?? true;
  const mintId = createIdMinter();
  const ctx: ProviderErrorContext = {
    providerId: options.providerId,
    displayName: options.displayName,
    model: options.model,
    baseUrl,
    apiKeyEnv: options.apiKeyEnv,
    apiKey: options.apiKey ?? undefined,
  };

  async function attemptChat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
    const body = openAIRequestBody(request, { model: options.model, stream, maxTokensField: options.maxTokensField });
    const res = await fetchImpl(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: requestHeaders(options, stream ? 'text/event-stream' : 'application/json'),
      body: JSON.stringify(body),
      signal: attempt.signal,
    });
    attempt.keepAlive();
    if (!res.ok) throw errorFromHttp(res.status, await res.text().catch(() => ''), ctx, res.headers);
    const parserId = options.parser ?? null;
    const filter = parserId && request.onDelta ? new ParsedDeltaFilter(parserId, request.tools, request.onDelta) : null;
    const onDelta = filter ? (d: ChatDelta) => filter.push(d) : request.onDelta;
    // A server may answer a stream request with one JSON body (a 401 always does); read what came.
    const isSse = (res.headers.get('content-type') ?? '').includes('text/event-stream');
    const raw = isSse ? await readStream(res, attempt, onDelta) : await readJson(res);
    filter?.finish();
    const parsed = parserId ? applyTextParser(raw, parserId, request.tools, mintId) : raw;
    return {
      content: parsed.content,
      reasoning: parsed.reasoning,
      toolCalls: parsed.toolCalls,
      usage: raw.usage,
      finishReason: raw.finishReason,
      responseId: raw.responseId,
      model: raw.model ?? options.model,
      ...('parseErrors' in parsed && parsed.parseErrors ? { parseErrors: parsed.parseErrors } : {}),
    };
  }

  async function readStream(res: Response, attempt: Attempt, onDelta?: (d: ChatDelta) => void): Promise<RawOpenAIResponse> {
    if (!res.body) throw badResponseError(ctx, 'an event stream without a body');
    const acc = new OpenAIStreamAccumulator(mintId);
    let done = false;
    try {
      await readSseEvents(
        res.body,
        (event) => {
          if (done) return;
          const data = event.data.trim();
          if (data === '[DONE]') {
            done = true;
            return;
          }
          if (!data) return;
          let chunk: unknown;
          try {
            chunk = JSON.parse(data);
          } catch {
            throw badResponseError(ctx, `a stream event that is not JSON (${data.slice(0, 80)})`);
          }
          if (!chunk || typeof chunk !== 'object') return;
          const record = chunk as Record<string, unknown>;
          // An error inside a 200 stream (OpenRouter, the Responses API's `error` event).
          if (record.error !== undefined && record.error !== null) throw errorFromHttp(null, record, ctx);
          for (const d of acc.push(record)) onDelta?.(d);
        },
        attempt.keepAlive,
      );
    } catch (err) {
      if (attempt.signal.aborted || err instanceof ProviderError) throw err;
      throw droppedStreamError(ctx, 'the connection broke mid-stream', err);
    }
    if (!done && acc.finishReason === null) throw droppedStreamError(ctx, 'no finish_reason and no [DONE]');
    return acc.result();
  }

  async function readJson(res: Response): Promise<RawOpenAIResponse> {
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw badResponseError(ctx, `a body that is not JSON (${text.slice(0, 80)})`);
    }
    if (body && typeof body === 'object' && 'error' in body && (body as { error: unknown }).error) {
      throw errorFromHttp(res.status, body, ctx, res.headers);
    }
    const raw = readOpenAIJson(body, mintId);
    if (!raw) throw badResponseError(ctx, 'no choices[0].message');
    return raw;
  }

  return {
    chat(request) {
      return withRetries((attempt) => attemptChat(request, attempt), {
        policy,
        ctx,
        signal: request.signal,
        onRetry: options.onRetry,
      });
    },

    listModels(signal) {
      return withRetries(
        async (attempt) => {
          const res = await fetchImpl(`${baseUrl}/models`, { headers: requestHeaders(options, 'application/json'), signal: attempt.signal });
          if (!res.ok) throw errorFromHttp(res.status, await res.text().catch(() => ''), ctx, res.headers);
          const body = (await res.json().catch(() => null)) as { data?: unknown; models?: unknown } | null;
          const list = Array.isArray(body?.data) ? body.data : Array.isArray(body?.models) ? body.models : null;
          if (!list) throw badResponseError(ctx, 'GET /models without a data list');
          return list
            .map((m) => (m && typeof m === 'object' ? ((m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name) : null))
            .filter((id): id is string => typeof id === 'string');
        },
        { policy, ctx, signal },
      );
    },
  };
}
