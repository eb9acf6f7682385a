// jsonDepth: recursive down to 200 levels, a stack of its own below; the same answer as a plain
// stack walk for any value, any depth and any stopAt, and no stack overflow however deep.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundDepth, jsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** The definition: the deepest level, walked with a stack; the first level ≥ stopAt ends the walk. */
function reference(value: unknown, stopAt = Infinity): number {
  if (!isContainer(value)) return 0;
  let max = 0;
  const stack: [Container, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) max = depth;
    if (max >= stopAt) return max;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (isContainer(child)) stack.push([child, depth + 1]);
  }
  return max;
}

/** `levels` containers nested, arrays and objects in turn, each with scalars and a branch up to two levels deep beside the next. */
function chain(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = levels; i >= 1; i--) value = i % 2 ? [1, value, { x: [2] }] : { a: value, b: 'text', c: [] };
  return value;
}

/**
 * chain(levels)'s depth, known from its shape (not walked: past 200 levels jsonDepth walks as
 * `reference` does, so comparing the two there would check the walk against itself): the side
 * branch `{ x: [2] }` of an odd level i reaches i + 2, the `c: []` of an even one i + 1. With
 * stopAt, the walk ends at the first level at or past it, and every level up to the depth exists.
 */
function chainDepth(levels: number, stopAt = Infinity): number {
  const depth = levels % 2 === 1 ? levels + 2 : levels + 1;
  return stopAt >= depth ? depth : Math.max(1, Math.ceil(stopAt));
}

const STOPS = [0, 1, 2, 3, 150, 199, 200, 201, 202, 399, 400, 1000, 2001, 2.5, Infinity];

describe('jsonDepth', () => {
  it('answers as the stack walk for random JSON values, every stopAt', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        for (const stopAt of STOPS) expect(jsonDepth(value, stopAt)).toBe(reference(value, stopAt));
        expect(jsonDepth(value)).toBe(reference(value));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the depth of a chain across the recursion limit (199–202 levels), far below it, and at 100,000 levels', () => {
    for (const levels of [1, 2, 198, 199, 200, 201, 202, 401, 3_000, 100_000]) {
      const value = chain(levels);
      expect(jsonDepth(value), `${levels}`).toBe(chainDepth(levels));
      for (const stopAt of STOPS) expect(jsonDepth(value, stopAt), `${levels} stop ${stopAt}`).toBe(chainDepth(levels, stopAt));
    }
  });

  it('counts own keys only, as Object.values does, "__proto__" from JSON.parse included', () => {
    const inherited = Object.create({ deep: [[[[1]]]] }) as Record<string, unknown>;
    Object.defineProperty(Object.getPrototypeOf(inherited), 'deep', { enumerable: true });
    inherited.own = [1];
    expect(jsonDepth(inherited)).toBe(2);
    expect(jsonDepth(JSON.parse('{"__proto__": [[[1]]], "a": 1}'))).toBe(4);
    expect(jsonDepth('text')).toBe(0);
    expect(jsonDepth(null)).toBe(0);
    expect(jsonDepth([])).toBe(1);
  });

  it('leaves a value within the bound as it is, and cuts a deeper one', () => {
    const shallow = { rows: [{ tokens: { input: 1 } }] };
    expect(boundDepth(shallow)).toBe(shallow);
    const cut = boundDepth(chain(MAX_JSON_DEPTH + 5)) as unknown;
    expect(jsonDepth(cut)).toBe(MAX_JSON_DEPTH);
  });
});
