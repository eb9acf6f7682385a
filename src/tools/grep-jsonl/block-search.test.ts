// A plain ASCII pattern searched ignoring case is decided by finding its literal (no regex per
// candidate line): the same lines as the regex, never a match across a newline, and no
// non-ASCII letter taken for an ASCII one (the Kelvin sign is not a K, as in JavaScript's `i`).

import { describe, expect, it } from 'vitest';
import { planUserSearch } from '../../core/safe-regex.js';
import { blockSearch } from './block-search.js';

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
