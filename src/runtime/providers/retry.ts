// Retries, per-request timeouts and the caller's AbortSignal, for every provider client. The SDKs'
// own retries are turned off so that one policy (and one record of what happened) holds.
//
// A retried response restreams: onDelta sees the failed attempt's deltas, then the new attempt's
// from its start. `onRetry` (client option) is told before each retry, so a terminal can clear
// what it showed; the final ChatResponse holds only the successful attempt.

import { networkError, ProviderError, type ProviderErrorContext } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = one attempt). */
  maxRetries: number;
  /** How long to wait for a response to start, and for each silence inside a stream. */
  timeoutMs: number;
  /** First backoff; doubles per retry, with jitter. */
  baseDelayMs: number;
  /** No wait is longer than this, Retry-After included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  timeoutMs: 120_000,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

export interface RetryNotice {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  error: ProviderError;
}

/** What one attempt gets: its own signal (caller abort + timeout) and a way to say "still alive". */
export interface Attempt {
  signal: AbortSignal;
  attempt: number;
  /** Restart the timeout: called on every chunk of a stream, so only silence times out. */
  keepAlive(): void;
}

export interface RetryOptions {
  policy: RetryPolicy;
  ctx: ProviderErrorContext;
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  /** For tests: the jitter source (default Math.random). */
  random?: () => number;
}

/** The wait before retry number `retry` (from 1): Retry-After when given, else backoff with jitter; capped. */
export function retryDelay(retry: number, error: ProviderError, policy: RetryPolicy, random: () => number = Math.random): number {
  if (error.retryAfterMs !== null) return Math.min(error.retryAfterMs, policy.maxDelayMs);
  const backoff = policy.baseDelayMs * 2 ** (retry - 1);
  // "Equal jitter": half fixed, half random, so clients that failed together spread out.
  return Math.min(policy.maxDelayMs, Math.round(backoff / 2 + (random() * backoff) / 2));
}

export async function withRetries<T>(run: (attempt: Attempt) => Promise<T>, options: RetryOptions): Promise<T> {
  const { policy, ctx, signal } = options;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortedError(ctx, signal.reason);
    let error: ProviderError;
    try {
      return await runAttempt(run, attempt, options);
    } catch (err) {
      error = err as ProviderError;
    }
    if (!error.retryable || attempt > policy.maxRetries) throw error;
    const delayMs = retryDelay(attempt, error, policy, options.random);
    options.onRetry?.({ attempt, delayMs, error });
    await sleep(delayMs, signal, ctx);
  }
}

async function runAttempt<T>(run: (attempt: Attempt) => Promise<T>, attempt: number, options: RetryOptions): Promise<T> {
  const { policy, ctx, signal } = options;
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, policy.timeoutMs);
  };
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  arm();
  try {
    return await run({ signal: controller.signal, attempt, keepAlive: arm });
  } catch (err) {
    if (signal?.aborted) throw abortedError(ctx, signal.reason);
    if (timedOut) {
      throw new ProviderError({
        kind: 'timeout',
        providerId: ctx.providerId,
        retryable: false,
        message: `${ctx.displayName ?? ctx.providerId} did not answer within ${policy.timeoutMs} ms${ctx.model ? ` (model "${ctx.model}")` : ''}: raise timeoutMs or check the server.`,
      });
    }
    if (err instanceof ProviderError) throw err;
    throw networkError(ctx, err);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function abortedError(ctx: ProviderErrorContext, reason: unknown): ProviderError {
  return new ProviderError({
    kind: 'aborted',
    providerId: ctx.providerId,
    retryable: false,
    cause: reason,
    message: `The request to ${ctx.displayName ?? ctx.providerId} was cancelled.`,
  });
}

function sleep(ms: number, signal: AbortSignal | undefined, ctx: ProviderErrorContext): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError(ctx, signal.reason));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError(ctx, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
