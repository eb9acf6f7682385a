// VersionCache: one computation per store, key and version, shared by concurrent callers; a new
// version computes again; failures are not kept; the least recently used entry goes first.

import { describe, expect, it } from 'vitest';
import { VersionCache } from './version-cache.js';

/** A computation that resolves when told to, counting how often it ran. */
function gate<V>(value: V) {
  let runs = 0;
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return {
    compute: async () => {
      runs++;
      await opened;
      return value;
    },
    open,
    runs: () => runs,
  };
}

describe('VersionCache', () => {
  it('shares one in-flight computation among concurrent calls of the same key and version', async () => {
    const cache = new VersionCache<string>();
    const store = {};
    const g = gate('answer');
    const calls = Array.from({ length: 50 }, () => cache.get(store, 'k', 'v1', g.compute));
    g.open();
    expect(await Promise.all(calls)).toEqual(Array(50).fill('answer'));
    expect(g.runs()).toBe(1);
    expect(cache.stats).toEqual({ hits: 49, misses: 1 });
  });

  it('computes again for a new version, another key or another store object', async () => {
    const cache = new VersionCache<string>();
    const a = {};
    const b = {};
    let n = 0;
    const compute = async () => `run ${++n}`;
    expect(await cache.get(a, 'k', 'v1', compute)).toBe('run 1');
    expect(await cache.get(a, 'k', 'v1', compute)).toBe('run 1');
    expect(await cache.get(a, 'k', 'v2', compute)).toBe('run 2');
    expect(await cache.get(a, 'other', 'v2', compute)).toBe('run 3');
    expect(await cache.get(b, 'k', 'v2', compute)).toBe('run 4');
    // The newer version replaced the older one.
    expect(await cache.get(a, 'k', 'v1', compute)).toBe('run 5');
  });

  it('hands a failure to every waiting caller but keeps nothing: the next call tries again', async () => {
    const cache = new VersionCache<string>();
    const store = {};
    let fail = true;
    const compute = async () => {
      if (fail) throw new Error('store went away');
      return 'ok';
    };
    const both = [cache.get(store, 'k', 'v', compute), cache.get(store, 'k', 'v', compute)];
    await expect(both[0]).rejects.toThrow('store went away');
    await expect(both[1]).rejects.toThrow('store went away');
    fail = false;
    expect(await cache.get(store, 'k', 'v', compute)).toBe('ok');
  });

  it('keeps at most maxEntries per store, dropping the least recently used', async () => {
    const cache = new VersionCache<string>(2);
    const store = {};
    let n = 0;
    const compute = async () => `run ${++n}`;
    await cache.get(store, 'a', 'v', compute); // run 1
    await cache.get(store, 'b', 'v', compute); // run 2
    await cache.get(store, 'a', 'v', compute); // hit: a is now the most recent
    await cache.get(store, 'c', 'v', compute); // run 3, drops b
    expect(await cache.get(store, 'a', 'v', compute)).toBe('run 1');
    expect(await cache.get(store, 'b', 'v', compute)).toBe('run 4');
  });
});
