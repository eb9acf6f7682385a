import { describe, expect, it } from 'vitest';
import { HindsightError } from './errors.js';
import { compileUserPattern, foldCase, lineRegExp, unrollCounts } from './safe-regex.js';

function failure(pattern: string, ignoreCase = false): { code: string; message: string } | null {
  try {
    compileUserPattern(pattern, { ignoreCase });
    return null;
  } catch (err) {
    if (err instanceof HindsightError) return { code: err.code, message: err.message };
    throw err;
  }
}

describe('compileUserPattern', () => {
  it('compiles a pattern for block scanning (global, multiline) and one for single lines', () => {
    const re = compileUserPattern('budget_exhausted');
    expect(re.flags).toBe('gm');
    expect(lineRegExp(re).flags).toBe('');
    expect(re.test('x budget_exhausted y')).toBe(true);
  });

  it('refuses empty, over-long and invalid patterns with INVALID_PATTERN', () => {
    expect(failure('')).toMatchObject({ code: 'INVALID_PATTERN', message: expect.stringMatching(/empty/) });
    expect(failure('x'.repeat(1001))).toMatchObject({ code: 'INVALID_PATTERN', message: expect.stringMatching(/1001 characters long; the limit is 1000/) });
    expect(failure('x'.repeat(1000))).toBeNull();
    expect(failure('(')).toMatchObject({ code: 'INVALID_PATTERN', message: expect.stringMatching(/Unterminated group/) });
    expect(failure('[z-a]')).toMatchObject({ code: 'INVALID_PATTERN' });
  });

  it('refuses backreferences and lookaround, saying why', () => {
    for (const p of ['(a)\\1', '(?<w>x)\\k<w>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) {
      const f = failure(p);
      expect(f?.code, p).toBe('INVALID_PATTERN');
      expect(f?.message).toMatch(/backreference, lookahead\/lookbehind.*exponential time/);
      expect(failure(p, true)?.code, `${p} ignoring case`).toBe('INVALID_PATTERN');
    }
  });

  it('runs a catastrophic pattern on a 100,000-character line to completion (linear fallback)', () => {
    const line = `${'a'.repeat(100_000)}!`;
    for (const ignoreCase of [false, true]) {
      const re = compileUserPattern('(a+)+$', { ignoreCase });
      re.lastIndex = 0;
      expect(re.exec(line)).toBeNull();
      expect(lineRegExp(compileUserPattern('(a+)+!', { ignoreCase })).test(line)).toBe(true);
    }
  });

  it('accepts counted repetitions above 16 on a character or class by spelling them out', () => {
    expect(unrollCounts('[0-9a-f]{64}')).toBe('(?:[0-9a-f]{16}[0-9a-f]{16}[0-9a-f]{16}[0-9a-f]{16})');
    expect(unrollCounts('a{20,}')).toBe('(?:a{16}a{4}a*)');
    expect(unrollCounts('x{2,5}')).toBe('x{2,5}');
    const hash = lineRegExp(compileUserPattern('^[0-9a-f]{64}$'));
    expect(hash.test('ab'.repeat(32))).toBe(true);
    expect(hash.test('ab'.repeat(31))).toBe(false);
    expect(hash.test('ab'.repeat(33))).toBe(false);
    const range = lineRegExp(compileUserPattern('^a{3,40}$'));
    expect([2, 3, 40, 41].map((n) => range.test('a'.repeat(n)))).toEqual([false, true, true, false]);
    // A repeated group with more than 16 copies cannot run in linear time.
    expect(failure('(ab){20}')?.code).toBe('INVALID_PATTERN');
    expect(failure('([0-9a-f]{40})+$')?.code).toBe('INVALID_PATTERN');
  });

  it('ignores case exactly as the i flag does, without using it', () => {
    const patterns = ['abc', '[a-f]+x', '[^a-z]+', '\\x41b', 'caf\\u00e9', 'Straße', '[-a]', '[a-]', '[\\d-x]', '\\bfoo\\b', '(?<w>ab)c', '[\\w.]+@', 'Ä|ö', '[À-Ý]', 'k\\q', 'a{2}B', '(?:Er|wa)rn'];
    const samples = ['ABC', 'abc', 'aBc', 'FFx', 'zz', 'AB', 'CAFÉ', 'STRASSE', 'STRAßE', '-', 'A', 'X', '5', 'FOO bar', 'X@', 'ä', 'Ö', 'àé', 'KQ', 'kq', 'AAb', 'ERRN', 'Warn'];
    for (const p of patterns) {
      const folded = new RegExp(foldCase(p));
      expect(folded.flags).toBe('');
      for (const s of samples) expect(folded.test(s), `${p} on ${s}`).toBe(new RegExp(p, 'i').test(s));
    }
    expect(compileUserPattern('BUDGET_exhausted', { ignoreCase: true }).test('"budget_EXHAUSTED"')).toBe(true);
    expect(compileUserPattern('BUDGET_exhausted').test('"budget_EXHAUSTED"')).toBe(false);
  });
});
