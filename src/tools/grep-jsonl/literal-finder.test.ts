import { describe, expect, it } from 'vitest';
import { literalFinder, partStart } from './literal-finder.js';

/** Every index where `needle` starts, found by the finder from each previous one on. */
function all(find: (from: number) => number): number[] {
  const out: number[] = [];
  for (let at = find(0); at !== -1; at = find(at + 1)) out.push(at);
  return out;
}

describe('literalFinder', () => {
  it('searches from the rarest byte that leaves four bytes to search, keeping the whole needle when it is short', () => {
    expect(partStart(Buffer.from('error'))).toBe(1); // `rror`: `r` is rarer than `e`, `or` too short
    expect(partStart(Buffer.from('budget_exhausted'))).toBe(8); // `xhauste`, then `d` compared
    expect(partStart(Buffer.from('LED-484bcc27'))).toBe(0); // `L` is rarer than every later byte
    expect(partStart(Buffer.from('err'))).toBe(0);
  });

  it('finds exactly what Buffer.indexOf finds, from any position: overlaps, edges, near misses', () => {
    const cases: [string, string][] = [
      ['an error, errors, rror, eerror, error', 'error'],
      ['rrorrror error', 'error'],
      ['error', 'error'],
      ['xerro', 'error'],
      ['"reason": "budget_exhausted" budget_exhaust budget_exhausted', 'budget_exhausted'],
      ['aaaaab aaab aab', 'aaab'],
      ['zzzz', 'z'],
      ['LED-484bcc2 LED-484bcc27 LED-484bcc27x', 'LED-484bcc27'], // the part `LED-484`, then the rest compared
      ['budget_exhauste', 'budget_exhausted'], // the part found, no room for the rest
      ['', 'error'],
    ];
    for (const [text, needle] of cases) {
      const haystack = Buffer.from(text);
      const find = literalFinder(haystack, Buffer.from(needle));
      for (let from = 0; from <= haystack.length + 1; from++) expect(find(from), `${needle} in ${text} from ${from}`).toBe(haystack.indexOf(needle, from));
    }
  });

  it('agrees with Buffer.indexOf on random text over a small alphabet (many near misses)', () => {
    let seed = 17;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0);
    const alphabet = 'erro x\n';
    for (let round = 0; round < 200; round++) {
      const haystack = Buffer.from(Array.from({ length: 300 }, () => alphabet[next() % alphabet.length]).join(''));
      const needle = Buffer.from(Array.from({ length: 2 + (next() % 12) }, () => alphabet[next() % 4]).join(''));
      const expected: number[] = [];
      for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) expected.push(at);
      expect(all(literalFinder(haystack, needle))).toEqual(expected);
    }
  });
});
