import { describe, expect, it } from 'vitest';
import { compileUserPattern, lineRegExp, planUserSearch } from '../../core/safe-regex.js';
import type { EvidenceBlockView } from '../../store/store.js';
import { byteSafe, requiredLiteral } from './pattern-facts.js';
import { blockMatcher, matchBlock } from './scan.js';
import { blockSearch, type SearchBlock } from './block-search.js';

/** A block as the store hands it over: lines joined by '\n', the last one maybe without. */
function block(lines: (string | Buffer)[], incompleteLast = false): EvidenceBlockView {
  const parts: Buffer[] = [];
  const index: EvidenceBlockView['lines'] = [];
  let at = 0;
  lines.forEach((l, k) => {
    const bytes = typeof l === 'string' ? Buffer.from(l, 'utf8') : l;
    const last = k === lines.length - 1 && incompleteLast;
    index.push({ lineNumber: 10 + k, start: at, length: bytes.length, status: last ? 'incomplete' : bytes.length ? 'ok' : 'blank' });
    parts.push(bytes);
    if (!last) parts.push(Buffer.from('\n'));
    at += bytes.length + (last ? 0 : 1);
  });
  return { fileId: 1, file: 'x.jsonl', data: Buffer.concat(parts), lines: index };
}

function grep(b: EvidenceBlockView, pattern: string, options: { ignoreCase?: boolean; literal?: boolean } = {}): number[] {
  const re = compileUserPattern(pattern, { ignoreCase: options.ignoreCase ?? false });
  const literal = options.literal === false ? null : requiredLiteral(pattern);
  const hits: number[] = [];
  matchBlock(b, blockMatcher(re, lineRegExp(re), literal, options.ignoreCase ?? false), (k) => hits.push(b.lines[k]!.lineNumber));
  return hits;
}

/** What a line-by-line grep says (the reference the block scanner must agree with). */
function naive(lines: string[], pattern: string, flags = ''): number[] {
  const re = new RegExp(pattern, flags);
  return lines.flatMap((l, k) => (re.test(l) ? [10 + k] : []));
}

const ascii = ['{"event_type": "SESSION_START", "x": 1}', '', '{"event_type": "TURN_RECORDED", "reason": "budget_exhausted"}', '   ', '{"event_type": "SESSION_END"}'];
const unicode = ['{"m": "café \u2028foo"}', '{"m": "naïve budget_exhausted"}', '{"m": "日本語 SESSION_END"}', '{"m": "plain"}', '{"m": "éfooé fo\u3000x"}'];

describe('matchBlock', () => {
  it('agrees with a line-by-line grep on ASCII and UTF-8 blocks, with and without a literal prefilter', () => {
    const patterns = ['SESSION_', 'budget_exhausted', '"event_type": "[A-Z]+"', '^\\{"m', '\\}$', '^$', '^\\s+$', 'x*', 'foo', '^foo', 'caf.', '[^"]+END', 'é|本', '\\bfoo\\b', 'o\\sx', 'o\\Wx', '"m": "[a-z]+"\\}'];
    for (const lines of [ascii, unicode]) {
      for (const p of patterns) {
        for (const literal of [true, false]) expect(grep(block(lines), p, { literal }), `${p} (literal ${literal})`).toEqual(naive(lines, p));
      }
    }
  });

  it('never counts a match that only exists across a newline', () => {
    const lines = ['{"a": 1}', '{"b": 2}'];
    expect(grep(block(lines), '\\}\\s\\{')).toEqual([]);
    expect(grep(block(lines), '1\\}[^x]\\{"b')).toEqual([]);
    expect(grep(block(lines), '\\n')).toEqual([]);
    // ...but a later match on the same line still counts
    // (the leftmost match 'a c\nb' crosses; the line alone still matches 'c')
    expect(grep(block(['a c', 'b']), 'a[^q]*b|c')).toEqual([10]);
    expect(grep(block(['a d', 'b']), 'a[^q]*b|c')).toEqual([]);
  });

  it('treats U+2028 inside a line as text, not as a line start (JavaScript multiline would)', () => {
    expect(grep(block(unicode), '^foo')).toEqual([]);
    expect(grep(block(unicode), '\u2028foo')).toEqual([10]);
  });

  it('ignores case through the prefilter and the folded pattern alike', () => {
    for (const literal of [true, false]) {
      expect(grep(block(unicode), 'BUDGET_exhausted', { ignoreCase: true, literal })).toEqual([11]);
      expect(grep(block(unicode), 'CAFÉ', { ignoreCase: true, literal })).toEqual([10]);
    }
  });

  it('searches an incomplete last line and lines with invalid UTF-8', () => {
    const bad = Buffer.concat([Buffer.from('{"x": "'), Buffer.from([0xff, 0xfe]), Buffer.from('budget"}')]);
    expect(grep(block(['{"a": "budget"}', bad, '{"budget": 1'], true), 'budget')).toEqual([10, 11, 12]);
    expect(grep(block(['{"a": "budget"}', bad, '{"budget": 1'], true), '"\uFFFD\uFFFDbudget')).toEqual([11]);
  });
});

describe('byteSafe', () => {
  it('is true only for patterns that can match nothing but ASCII', () => {
    for (const p of ['budget', '"decision": "[A-Z]+"', '\\bfoo\\b', '^\\d{4}-\\w+$', '[\\u0061\\u0041]', '\\x41']) expect(byteSafe(p), p).toBe(true);
    for (const p of ['a.b', '[^"]+', '\\s', '\\S', '\\W', '\\D', 'café', '\\u00e9', '\\xe9', '[\\u0000-\\u00ff]']) expect(byteSafe(p), p).toBe(false);
  });
});

describe('requiredLiteral', () => {
  it('finds the most selective run every match must contain, or nothing when unsure', () => {
    expect(requiredLiteral('budget_exhausted')).toBe('budget_exhausted');
    expect(requiredLiteral('LED-[0-9a-f]{8}"')).toBe('LED-');
    expect(requiredLiteral('"decision": "[A-Z]+"')).toBe('"decision": "');
    expect(requiredLiteral('{"event_type": "EXCHANGE"')).toBe('{"event_type": "EXCHANGE"');
    expect(requiredLiteral('abcd?')).toBe('abc');
    expect(requiredLiteral('a\\.b\\.c')).toBe('a.b.c');
    expect(requiredLiteral('(foo)+barbaz')).toBe('barbaz');
    expect(requiredLiteral('foo|barbaz')).toBeNull();
    expect(requiredLiteral('"decision": "(ERROR|DEBITED)"')).toBe('"decision": "');
    expect(requiredLiteral('ab')).toBeNull();
    expect(requiredLiteral('[abc]+\\d')).toBeNull();
  });

  it('prefers a run of letters to a longer run of JSON punctuation, which is on every line', () => {
    expect(requiredLiteral('"[a-z_]+": "[^"]*[Ee]rror')).toBe('rror');
    expect(requiredLiteral('": "x[0-9]"name')).toBe('"name');
    expect(requiredLiteral('"name":"(Bash|Read)"')).toBe('"name":"');
    expect(requiredLiteral('\uD83Dxyz[a-z]+abc')).toBe('abc'); // a lone surrogate cannot be searched as bytes
  });
});

/** A block as the search worker receives it. */
function workerBlock(lines: (string | Buffer)[]): SearchBlock {
  const b = block(lines);
  return { data: b.data, starts: Int32Array.from(b.lines, (l) => l.start), lengths: Int32Array.from(b.lines, (l) => l.length), lastIncomplete: false, only: null };
}

describe('blockSearch (the worker): the literal prefilter never changes which lines match', () => {
  const json = [
    '{"type":"tool_use","name":"Bash","input":{"command":"ls"}}',
    '{"type":"text","text":"An Error occurred: no such file"}',
    '{"m": "naïve café — ERROR in 日本語"}',
    '{"m": "plain", "id": "toolu_01ABCdef"}',
    '{"type":"tool_use","name":"Read","input":{"file":"é.txt"}}',
    '{"m": "CAFÉ error", "x": "erRor"}',
    '',
    '{"m": "日本語 only"}',
  ];
  const cases: [string, boolean][] = [
    ['error', false], ['error', true], ['ERROR', true], ['café', false], ['CAFÉ', true], ['日本語', false], ['本語 only', false],
    ['"name":"(Bash|Read)"', false], ['Bash|Read', false], ['(Bash|naïve) ', false], ['toolu_[A-Za-z0-9]+', false], ['"[a-z_]+": "[^"]*[Ee]rror', false],
    ['[Ee]rror', false], ['\berror\b', true], ['^\{"m": "[^"]*"\}$', false], ['^$', false], ['é\.txt', false], ['x*', false],
  ];
  for (const [pattern, ignoreCase] of cases) {
    it(`${pattern}${ignoreCase ? ' (ignore_case)' : ''}`, async () => {
      const search = blockSearch(await planUserSearch(pattern, { ignoreCase }));
      const lines = search(workerBlock(json)).map((k) => 10 + k);
      expect(lines).toEqual(naive(json, pattern, ignoreCase ? 'i' : ''));
    });
  }
});
