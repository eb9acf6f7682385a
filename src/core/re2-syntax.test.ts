import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { toRe2Syntax } from './re2-syntax.js';
import { foldCase } from './safe-regex.js';

/** What RE2 says about a line, given as UTF-8 bytes as the search worker gives it. */
const re2Test = (pattern: string, line: string) => RE2JS.compile(toRe2Syntax(pattern)!).test(Buffer.from(line, 'utf8'));

// Atoms where the two syntaxes differ, or could: the translation must keep JavaScript's meaning.
const ATOMS = ['a', 'B', '.', '\\s', '\\S', '\\d', '\\D', '\\w', '\\W', '\\b', '\\B', '\\.', '\\q', '\\u00e9', '\\x41', '\\cJ', '\\0', '\\t', '\\r', '\\/', '\\-',
  '[a-c]', '[^a-c]', '[\\s]', '[\\S]', '[^\\s]', '[\\b]', '[\\w-]', '[.]', '[\\]]', '[]', '[^]', '[-a]', '[\\u00e0-\\u00ff]', 'é', '日', '{', '}', ']', 'x{2}', '{a}', '"', ':', ' ', '\\{', '$', '^'];
const CHARS = ['a', 'b', 'c', 'B', 'x', '1', '9', ' ', '\t', '\r', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff', 'é', 'É', 'à', '日', '.', '-', '/', '{', '}', ']', '"', ':', '_', 'A', '\x08', '\x00', '\n'];

const atom = fc.constantFrom(...ATOMS);
const piece = fc.tuple(atom, fc.constantFrom('', '', '*', '+', '?', '{1,2}', '*?')).map(([a, q]) => (a === '^' || a === '$' || a.startsWith('\\b') || a.startsWith('\\B') ? a : a + q));
const seq = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
const pattern = fc.oneof(seq, fc.tuple(seq, seq).map(([a, b]) => `${a}|${b}`), fc.tuple(seq, seq).map(([a, b]) => `(?:${a})+${b}`), fc.tuple(seq, seq).map(([a, b]) => `(${a}|${b})`));
const line = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((c) => c.join('').replace(/\n/g, ''));

function valid(p: string): boolean {
  try {
    new RegExp(p);
    return true;
  } catch {
    return false;
  }
}

describe('toRe2Syntax', () => {
  it('matches exactly the lines the JavaScript pattern matches (random patterns and lines)', () => {
    fc.assert(
      fc.property(pattern, fc.array(line, { minLength: 1, maxLength: 8 }), (p, lines) => {
        fc.pre(valid(p) && toRe2Syntax(p) !== null);
        const js = new RegExp(p);
        for (const l of lines) expect(re2Test(p, l), `${JSON.stringify(p)} on ${JSON.stringify(l)}`).toBe(js.test(l));
      }),
      { numRuns: 1500, seed: 20260214 },
    );
  });

  it('keeps ignore_case the JavaScript way (after foldCase)', () => {
    for (const [p, l] of [['straße', 'STRAßE'], ['caf\\u00e9', 'CAFÉ'], ['[a-f]+x', 'FFX'], ['k', 'K'], ['s', 'ſ'], ['\\w', 'ſ']]) {
      expect(re2Test(foldCase(p!), l!), `${p} on ${l}`).toBe(new RegExp(p!, 'i').test(l!));
    }
  });

  it('says the JavaScript meaning of what RE2 spells differently', () => {
    expect(re2Test('a.b', 'a\rb')).toBe(false); // JavaScript's dot stops at \r, RE2's would not
    expect(re2Test('a\\sb', 'a\u00a0b')).toBe(true); // JavaScript's \s is Unicode whitespace
    expect(re2Test('\\q\\a', 'qa')).toBe(true); // identity escapes are the letters
    expect(re2Test('x{a}', 'x{a}')).toBe(true); // a brace that is no quantifier is text
    expect(re2Test('[\\b]', '\b')).toBe(true);
    expect(re2Test('[]', 'anything')).toBe(false);
    expect(re2Test('[^]', 'a')).toBe(true);
    expect(re2Test('(?<year>\\d{4})-', '2026-')).toBe(true);
  });

  it('gives null for what RE2 cannot say, so the JavaScript engine and its screen keep it', () => {
    for (const p of ['(a)\\1', '(?<w>a)\\k<w>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b', '\\uD800', '[\\uD800-\\uDFFF]', '\\1']) {
      expect(toRe2Syntax(p), p).toBeNull();
    }
  });
});
