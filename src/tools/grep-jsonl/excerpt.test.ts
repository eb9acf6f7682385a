// Where a match is placed in a page line: V8 places short valid UTF-8 lines for patterns the search
// ran on RE2, and must place them exactly where RE2 does (byte offsets, lengths, the excerpt);
// lines that are not valid UTF-8 are placed by RE2 on their bytes.

import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { planUserSearch } from '../../core/safe-regex.js';
import { matchFinder, placeMatch } from './excerpt.js';

/** The first match as RE2 alone finds it in the bytes. */
function re2Place(source: string, bytes: Buffer): { match_offset: number; match_length: number } | null {
  const m = RE2JS.compile(source).matcher(bytes);
  return m.find() ? { match_offset: m.start(), match_length: m.end() - m.start() } : null;
}

const LINES = [
  '{"type":"error","message":"connect ECONNREFUSED 127.0.0.1:5432"}',
  '{"decision": "DENY", "reason": "policy", "detail": "kein Zugriff für Müller — Fehler: timeout error"}',
  '{"text":"🙂 emoji before the match: error here","n":1}',
  `{"pad":"${'x'.repeat(20_000)}","event_type": "TOOL_ERROR"}`, // longer than V8 is asked to place
];

describe('placing a match in a page line', () => {
  for (const [pattern, ignoreCase] of [
    ['"[a-z_]+": "[^"]*[Ee]rror', false],
    ['error', false],
    ['ERROR', true],
    ['"event_type": "[A-Z_]+"', false],
    ['[0-9]+\\.[0-9]+', false],
  ] as const) {
    it(`puts ${pattern}${ignoreCase ? ' (ignoring case)' : ''} where RE2 puts it`, async () => {
      const plan = await planUserSearch(pattern, { ignoreCase });
      expect(plan.engine).toBe('re2');
      const find = await matchFinder(plan);
      let placed = 0;
      for (const line of LINES) {
        const bytes = Buffer.from(line);
        const got = placeMatch(find, bytes, line);
        const want = re2Place(plan.source, bytes);
        expect(got && { match_offset: got.match_offset, match_length: got.match_length }).toEqual(want);
        if (!got) continue;
        placed++;
        // The excerpt marks the same text as the byte range.
        const matched = bytes.subarray(got.match_offset, got.match_offset + got.match_length).toString('utf8');
        expect(got.excerpt.slice(got.excerpt_match[0], got.excerpt_match[1])).toBe(matched.slice(0, got.excerpt_match[1] - got.excerpt_match[0]));
      }
      expect(placed).toBeGreaterThan(0);
    });
  }

  it('places a match RE2 alone can run (V8 refuses the pattern) and one V8 backtracks on', async () => {
    // (?:ab){200}: RE2 runs it, V8's screen refuses it (not linear there): placed by RE2 alone.
    const counted = await planUserSearch('(?:ab){200}', { ignoreCase: false });
    expect(counted.engine).toBe('re2');
    const line = `{"x":"${'ab'.repeat(250)}"}`;
    expect(placeMatch(await matchFinder(counted), Buffer.from(line), line)).toMatchObject({ match_offset: 6, match_length: 400 });
    // (a+)+b over a long run of a's before the match: V8 backtracks, and the place is still RE2's.
    const nested = await planUserSearch('(a+)+b', { ignoreCase: false });
    const find = await matchFinder(nested);
    for (const text of [`{"s":"${'a'.repeat(28)}c","t":"aab"}`, `{"t":"xab","s":"${'a'.repeat(28)}c"}`]) {
      const bytes = Buffer.from(text);
      expect(placeMatch(find, bytes, text)).toMatchObject(re2Place(nested.source, bytes)!);
    }
  });

  it('places a match in a line that is not valid UTF-8 by its bytes', async () => {
    const plan = await planUserSearch('err[a-z]+', { ignoreCase: false });
    const find = await matchFinder(plan);
    const bytes = Buffer.concat([Buffer.from('{"bin":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('","msg":"errors"}')]);
    const got = placeMatch(find, bytes, bytes.toString('utf8'));
    expect(got).toMatchObject({ match_offset: bytes.indexOf('errors'), match_length: 6 });
  });
});
