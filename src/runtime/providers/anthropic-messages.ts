// A ModelClient for Anthropic's Messages API through the official SDK (streamed with
// `messages.create({stream:true})`, or one Message when streaming is off). The SDK's retries are
// off (maxRetries 0): retry.ts decides, for every provider alike.

import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ChatRequest, ChatResponse, ModelClient } from '../model/chat.js';
import { anthropicRequestBody } from './anthropic-wire.js';
import { AnthropicStreamAccumulator, readAnthropicMessage } from './anthropic-response.js';
import { badResponseError, droppedStreamError, errorFromHttp, networkError, ProviderError, type ProviderErrorContext } from './errors.js';
import type { ProviderClientOptions } from './client-options.js';
import { DEFAULT_RETRY_POLICY, withRetries, type Attempt, type RetryPolicy } from './retry.js';

/** baseUrl is the SDK's baseURL: https://api.anthropic.com (no /v1; the SDK adds /v1/messages). */
export type AnthropicMessagesOptions = ProviderClientOptions;

/** SDK errors as ProviderErrors; an abort is passed through so that withRetries names it (abort or timeout). */
function fromSdkError(err: unknown, ctx: ProviderErrorContext): unknown {
  if (err instanceof ProviderError || err instanceof APIUserAbortError) return err;
  if (err instanceof APIConnectionTimeoutError) {
    return new ProviderError({ kind: 'timeout', providerId: ctx.providerId, retryable: false, cause: err, message: `${ctx.displayName ?? ctx.providerId} did not answer in time.` });
  }
  if (err instanceof APIConnectionError) return networkError(ctx, err.cause ?? err);
  if (err instanceof APIError) return errorFromHttp(err.status ?? null, err.error ?? err.message, ctx, err.headers ?? null);
  return err;
}

/**
 * @example
 * const client = createAnthropicMessagesClient({ providerId: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5', apiKey });
 */
export function createAnthropicMessagesClient(options: AnthropicMessagesOptions): ModelClient {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const stream = options.stream ?? true;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const ctx: ProviderErrorContext = {
    providerId: options.providerId,
    displayName: options.displayName,
    model: options.model,
    baseUrl,
    apiKeyEnv: options.apiKeyEnv,
    apiKey: options.apiKey ?? undefined,
  };
  const sdk = new Anthropic({
    // A keyless Anthropic-compatible server still needs the SDK to have something to send.
    apiKey: options.apiKey || 'no-key',
    authToken: null,
    baseURL: baseUrl,
    defaultHeaders: options.headers ?? {},
    maxRetries: 0,
    // Our own timer (retry.ts) measures silence per attempt; the SDK's stays out of its way.
    timeout: policy.timeoutMs * 2,
  });

  async function attemptChat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
    const body = anthropicRequestBody(request, options.model);
    try {
      if (!stream) {
        const message = await sdk.messages.create({ ...body, stream: false } as Anthropic.MessageCreateParamsNonStreaming, { signal: attempt.signal });
        const response = readAnthropicMessage(message, options.model);
        if (!response) throw badResponseError(ctx, 'a body without content blocks');
        return response;
      }
      const events = await sdk.messages.create({ ...body, stream: true } as Anthropic.MessageCreateParamsStreaming, { signal: attempt.signal });
      attempt.keepAlive();
      const acc = new AnthropicStreamAccumulator();
      try {
        for await (const event of events) {
          attempt.keepAlive();
          for (const d of acc.push(event)) request.onDelta?.(d);
        }
      } catch (err) {
        const mapped = fromSdkError(err, ctx);
        if (mapped instanceof ProviderError || attempt.signal.aborted) throw mapped;
        throw droppedStreamError(ctx, 'the connection broke mid-stream', err);
      }
      // The SDK ends an aborted stream quietly; withRetries tells abort from timeout.
      if (attempt.signal.aborted) throw new Error('aborted');
      if (!acc.stopped) throw droppedStreamError(ctx, 'no message_stop');
      return acc.result(options.model);
    } catch (err) {
      throw fromSdkError(err, ctx);
    }
  }

  return {
    chat(request) {
      return withRetries((attempt) => attemptChat(request, attempt), { policy, ctx, signal: request.signal, onRetry: options.onRetry });
    },

    listModels(signal) {
      return withRetries(
        async (attempt) => {
          try {
            const ids: string[] = [];
            for await (const model of sdk.models.list({}, { signal: attempt.signal })) ids.push(model.id);
            return ids;
          } catch (err) {
            throw fromSdkError(err, ctx);
          }
        },
        { policy, ctx, signal },
      );
    },
  };
}
