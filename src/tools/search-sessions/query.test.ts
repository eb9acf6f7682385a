import { describe, expect, it } from 'vitest';
import { ftsExpression } from '../../store/sqlite/search.js';
import { cutExcerpt, termPattern } from './excerpt.js';
import { parseQuery } from './query.js';

describe('parseQuery', () => {
  it('reads words, "phrases" and prefix*; operators and punctuation are text', () => {
    expect(parseQuery('deploy* "fix the bug" NEAR( a AND -x col:val ( "unbalanced')).toEqual([
      { kind: 'prefix', text: 'deploy' },
      { kind: 'phrase', text: 'fix the bug' },
      { kind: 'word', text: 'NEAR' },
      { kind: 'word', text: 'a' },
      { kind: 'word', text: 'AND' },
      { kind: 'word', text: 'x' },
      { kind: 'word', text: 'col:val' },
      { kind: 'phrase', text: 'unbalanced' },
    ]);
    expect(parseQuery('"401 unauth"* **')).toEqual([{ kind: 'prefix', text: '401 unauth' }]);
    expect(parseQuery('( ) - * " "')).toEqual([]);
  });

  it('quotes every term for FTS5, doubling quotes inside', () => {
    expect(ftsExpression(parseQuery('say"hi" deploy* "a b"'))).toBe('"say" AND "hi" AND "deploy"* AND "a b"');
    expect(ftsExpression([{ kind: 'word', text: 'it"s' }])).toBe('"it""s"');
  });
});

describe('cutExcerpt', () => {
  it('keeps short text whole on one line and cuts long text around the term within 300 characters', () => {
    const p = termPattern(parseQuery('needle'));
    expect(cutExcerpt('a\n\nneedle  here', p, true)).toBe('a needle here');
    const long = `${'x '.repeat(400)}the needle is here ${'y '.repeat(400)}`;
    const cut = cutExcerpt(long, p, true);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut).toContain('the needle is here');
    expect(cut.startsWith('…') && cut.endsWith('…')).toBe(true);
    // A term inside a longer word is not a whole-word match: the excerpt starts at the beginning.
    expect(cutExcerpt(`needles ${'z'.repeat(500)}`, p, true).startsWith('needles')).toBe(true);
  });

  it('redacts before cutting, so a key at the edge is never half-shown', () => {
    const text = `${'w '.repeat(60)}key sk-proj-OQkCGQvwJZFqDnNq7IYdseea then the needle ${'v '.repeat(300)}`;
    const cut = cutExcerpt(text, termPattern(parseQuery('needle')), true);
    expect(cut).not.toMatch(/sk-proj|OQkCGQ/);
    expect(cutExcerpt(text, termPattern(parseQuery('needle')), false)).toContain('sk-proj-OQkCGQ');
  });
});
