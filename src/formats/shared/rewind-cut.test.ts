import { describe, expect, it } from 'vitest';
import type { RewindLine } from '../profile.js';
import { keptOrphans, resolveCut } from './rewind-cut.js';

const line = (n: number, message: string | null, extra: Partial<RewindLine> = {}): RewindLine => ({
  line: n,
  tsKey: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000000000Z`,
  message,
  turnStart: false,
  calls: [],
  results: [],
  events: 1,
  ...extra,
});

// user(1) · assistant A on 2–3 calling a and b · results 4, 5 · assistant B (6) calling c · user(7) · result of c (8) · assistant (9)
const lines: RewindLine[] = [
  line(1, 'u1', { turnStart: true }),
  line(2, 'A'),
  line(3, 'A', { calls: ['a', 'b'] }),
  line(4, null, { results: ['a'] }),
  line(5, null, { results: ['b'] }),
  line(6, 'B', { calls: ['c', 'z'] }),
  line(7, 'u7', { turnStart: true }),
  line(8, null, { results: ['c'] }),
  line(9, 'C'),
];

describe('resolveCut', () => {
  it('moves a cut inside a multi-line message to the message start', () => {
    expect(resolveCut(lines, 9, { kind: 'time', at: '2026-01-01T00:00:03Z' })).toMatchObject({ line: 2, adjusted: true, movedBefore: [] });
  });

  it('moves before a call whose result is past the cut, even when the result comes after the next turn starts', () => {
    expect(resolveCut(lines, 9, { kind: 'turn', n: 1 })).toEqual({ line: 6, adjusted: true, movedBefore: ['c'] });
  });

  it('does not move for a call that never had a result (the original orphan is reported instead)', () => {
    const cut = resolveCut(lines, 9, { kind: 'message', n: 4 });
    expect(cut.line).toBe(9);
    expect(keptOrphans(lines, cut.line)).toEqual(['z']);
  });

  it('refuses when no boundary keeps the first message', () => {
    const bad = [line(1, 'u1', { turnStart: true, calls: ['x'] }), line(2, 'u2', { turnStart: true, results: ['x'] })];
    expect(() => resolveCut(bad, 2, { kind: 'turn', n: 1 })).toThrow(/keeps the first message/);
  });
});
