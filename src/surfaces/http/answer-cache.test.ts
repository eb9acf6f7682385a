// The kept answers' map on its own: single flight, one version at a time, bounded by bytes.

import { describe, expect, it } from 'vitest';
import { AnswerCache, type KeptBody } from './answer-cache.js';

const bodyOf = (bytes: number, etag: string | null = '"e"'): KeptBody => ({ status: 200, body: new Uint8Array(bytes), etag });

describe('AnswerCache', () => {
  it('computes once for concurrent and repeated calls of a key at a version', async () => {
    const cache = new AnswerCache(1 << 20);
    let runs = 0;
    const compute = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 5));
      return bodyOf(10);
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', 'v1', compute)));
    await cache.get('k', 'v1', compute);
    expect(runs).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 20, misses: 1, entries: 1 });
  });

  it('drops every entry when the version changes', async () => {
    const cache = new AnswerCache(1 << 20);
    await cache.get('a', 'v1', async () => bodyOf(10));
    await cache.get('b', 'v1', async () => bodyOf(10));
    let runs = 0;
    await cache.get('a', 'v2', async () => (runs++, bodyOf(10)));
    expect(runs).toBe(1);
    expect(cache.stats().entries).toBe(1);
  });

  it('keeps at most maxBytes, dropping the least recently used, and never keeps a body over an eighth', async () => {
    const cache = new AnswerCache(8_000);
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, 'v', async () => bodyOf(1_900));
    await cache.get('a', 'v', async () => bodyOf(1)); // a hit: a is now the most recent
    await cache.get('e', 'v', async () => bodyOf(1_900)); // over budget: b goes
    expect(cache.stats().bytes).toBeLessThanOrEqual(8_000);
    const again: string[] = [];
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.get(key, 'v', async () => (again.push(key), bodyOf(1_900)));
    expect(again[0]).toBe('b');
    const big = new AnswerCache(8_000);
    await big.get('x', 'v', async () => bodyOf(1_001));
    expect(big.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('keeps neither failures nor answers without an ETag (errors), but shares them with concurrent callers', async () => {
    const cache = new AnswerCache(1 << 20);
    let runs = 0;
    const failing = () => {
      runs++;
      return Promise.reject(new Error('boom'));
    };
    const both = await Promise.allSettled([cache.get('k', 'v', failing), cache.get('k', 'v', failing)]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    await expect(cache.get('k', 'v', async () => bodyOf(5, null))).resolves.toMatchObject({ etag: null });
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('keeps nothing with a budget of 0', async () => {
    const cache = new AnswerCache(0);
    let runs = 0;
    for (let i = 0; i < 3; i++) await cache.get('k', 'v', async () => (runs++, bodyOf(5)));
    expect(runs).toBe(3);
  });
});
