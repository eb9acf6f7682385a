// The ingest's heap bound: past it, a real full collection runs (what was garbage is gone); below
// it, nothing; and the bound adapts to what survives, so a heap that holds more is not collected at
// every check.

import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HEAP_BOUND_BYTES, HeapBound } from './heap-bound.js';

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('HeapBound', () => {
  it('runs a full collection once the heap is past the bound', async () => {
    let garbage: object | null = { payload: new Array(1000).fill('x') };
    const ref = new WeakRef(garbage);
    garbage = null;
    await nextTurn(); // a WeakRef's target is kept until the job that made it ends
    const bound = new HeapBound(1);
    expect(bound.check()).toBe(true);
    expect(bound.collections).toBe(1);
    expect(ref.deref()).toBeUndefined();
  });

  it('leaves the heap alone below the bound', () => {
    const bound = new HeapBound(Number.MAX_SAFE_INTEGER);
    expect(bound.check()).toBe(false);
    expect(bound.collections).toBe(0);
  });

  it('raises its bound to twice what survived a collection, and never below its base', () => {
    const tiny = new HeapBound(1);
    tiny.check();
    expect(tiny.nextBound).toBeGreaterThan(1);
    expect(tiny.nextBound).toBeLessThanOrEqual(2 * getHeapStatistics().total_heap_size);
    const base = 4 * getHeapStatistics().total_heap_size;
    const roomy = new HeapBound(base);
    expect(roomy.check()).toBe(false);
    expect(roomy.nextBound).toBe(base);
    expect(new HeapBound().nextBound).toBe(HEAP_BOUND_BYTES);
  });
});
