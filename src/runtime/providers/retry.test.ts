// The retry policy on its own: which errors are retried, how long it waits, when it stops.

import { describe, expect, it } from 'vitest';
import { errorFromHttp, ProviderError } from './errors.js';
import { DEFAULT_RETRY_POLICY, retryDelay, withRetries, type RetryNotice } from './retry.js';

const ctx = { providerId: 'test', model: 'm' };
const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('retry policy', () => {
  it('backs off exponentially with jitter, capped, and takes Retry-After first', () => {
    const server = errorFromHttp(500, '', ctx);
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, server, policy, () => 0))).toEqual([50, 100, 200, 400, 800]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, server, policy, () => 1))).toEqual([100, 200, 400, 800, 1_000]);
    const limited = errorFromHttp(429, '', ctx, new Headers({ 'retry-after': '2' }));
    expect(limited.retryAfterMs).toBe(2_000);
    expect(retryDelay(1, limited, { ...policy, maxDelayMs: 60_000 })).toBe(2_000);
    expect(retryDelay(1, limited, policy)).toBe(1_000);
  });

  it('retries retryable errors up to maxRetries and reports each retry', async () => {
    const notices: RetryNotice[] = [];
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (calls < 3) throw errorFromHttp(503, 'busy', ctx);
        return 'ok';
      },
      { policy: { ...policy, baseDelayMs: 1 }, ctx, onRetry: (n) => notices.push(n) },
    );
    expect(result).toBe('ok');
    expect(notices.map((n) => n.attempt)).toEqual([1, 2]);
  });

  it('never retries auth, unknown model, context length, bad request or a spent quota', async () => {
    const bodies: [number, unknown][] = [
      [401, ''],
      [404, ''],
      [400, { error: { message: 'prompt is too long: 9 tokens > 8 maximum' } }],
      [422, { error: { message: 'bad field' } }],
      [429, { error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'quota' } }],
    ];
    for (const [status, body] of bodies) {
      let calls = 0;
      const err = await withRetries(
        async () => {
          calls++;
          throw errorFromHttp(status, body, ctx);
        },
        { policy: { ...policy, baseDelayMs: 1 }, ctx },
      ).catch((e: unknown) => e as ProviderError);
      expect([status, calls, (err as ProviderError).retryable]).toEqual([status, 1, false]);
    }
  });

  it('turns an abort during the backoff wait into aborted', async () => {
    const controller = new AbortController();
    const err = await withRetries(
      async () => {
        setTimeout(() => controller.abort(), 5);
        throw errorFromHttp(500, '', ctx);
      },
      { policy: { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000 }, ctx, signal: controller.signal },
    ).catch((e: unknown) => e as ProviderError);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('aborted');
  });
});
