// A plain ASCII pattern searched ignoring case is decided by finding its literal (no regex per
// candidate line): the same lines as the regex, never a match across a newline, and no
// non-ASCII letter taken for an ASCII one (the Kelvin sign is not a K, as in JavaScript's `i`).

import { describe, expect, it } from 'vitest';
import { planUserSearch } from '../../core/safe-regex.js';
import { blockSearch, lowerAscii } from './block-search.js';

function block(lines: string[]) {
  const data = Buffer.from(`${lines.join('\n')}\n`);
  const starts = new Int32Array(lines.length);
  const lengths = new Int32Array(lines.length);
  for (let k = 0, at = 0; k < lines.length; k++) {
    starts[k] = at;
    lengths[k] = Buffer.byteLength(lines[k]!);
    at += lengths[k]! + 1;
  }
  return { data, starts, lengths, lastIncomplete: false, only: null };
}

describe('blockSearch ignoring case', () => {
  const lines = ['{"a":"ERROR"}', '{"b":"an eRrOr here"}', '{"c":"erro', 'r split"}', '{"d":"café Error"}', '{"e":"\u212Aey ok"}', '{"f":"KEY"}', '{"g":"none"}'];

  it('finds the lines a line-by-line regex finds', async () => {
    for (const pattern of ['error', 'ERROR', 'key', 'y o']) {
      const found = blockSearch(await planUserSearch(pattern, { ignoreCase: true }))(block(lines));
      const re = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'i');
      expect(found, pattern).toEqual(lines.flatMap((l, k) => (re.test(l) ? [k] : [])));
    }
  });

  it('is exact for a pattern that is more than its literal', async () => {
    const found = blockSearch(await planUserSearch('rro[r]"', { ignoreCase: true }))(block(lines));
    expect(found).toEqual([0, 4]);
  });
});

describe('lowerAscii', () => {
  it('lowers exactly the bytes A–Z, four at a time or one at a time, at every alignment', () => {
    const every = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37 + (i >> 8)) & 0xff));
    const expected = Buffer.from(every.map((c) => (c >= 65 && c <= 90 ? c + 32 : c)));
    for (let from = 0; from < 4; from++) {
      for (let to = 0; to < 4; to++) {
        for (const n of [0, 1, 3, 4, 7, 64, 513]) {
          const src = Buffer.alloc(n + 8);
          every.copy(src, from, 0, n);
          const out = Buffer.alloc(n + 8, 0xaa);
          lowerAscii(src.subarray(from, from + n), out.subarray(to, to + n));
          expect(out.subarray(to, to + n).equals(expected.subarray(0, n)), `${from} ${to} ${n}`).toBe(true);
          expect(out.subarray(0, to).every((c) => c === 0xaa) && out.subarray(to + n).every((c) => c === 0xaa)).toBe(true);
        }
      }
    }
  });
});
