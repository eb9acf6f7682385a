// The page cut before the max_bytes fit keeps the answer: for caps from nothing to everything, the
// fit of the cut page equals the fit of the whole page, and a small cap leaves few entries to serialise.

import { describe, expect, it } from 'vitest';
import { fitMaxBytes, page } from '../envelope.js';
import { enoughToFit } from './page-fit.js';

const entries = Array.from({ length: 60 }, (_, i) => ({
  line_number: i + 1,
  file: `f${i % 3}.jsonl`,
  // escapes, multi-byte characters and lengths that vary
  raw: `{"i":${i},"text":"${'é"\\\n'.repeat(i % 7)}${'x'.repeat((i * 37) % 500)}"}`,
  read_from: 'live' as const,
}));

const body = (list: typeof entries) => ({ source: 'all', ...page(1234, 500, 0, entries.length), entries: list });

describe('enoughToFit', () => {
  it('cuts a page of big lines to the first entries whose raw lines pass the cap', () => {
    const cut = enoughToFit(entries, 1000);
    expect(cut.length).toBeLessThan(10);
    expect(cut.slice(0, -1).reduce((n, e) => n + Buffer.byteLength(e.raw), 0)).toBeLessThanOrEqual(1000);
    expect(cut.reduce((n, e) => n + Buffer.byteLength(e.raw), 0)).toBeGreaterThan(1000);
    expect(enoughToFit(entries, 10_000_000)).toBe(entries);
  });

  it('gives the same fitted result as the whole page for every cap', () => {
    const whole = Buffer.byteLength(JSON.stringify({ status: 'ok', ...body(entries) }));
    for (let cap = 1; cap <= whole + 10; cap += cap < 400 ? 7 : 211) {
      expect(fitMaxBytes(body(enoughToFit(entries, cap)), 'entries', cap)).toEqual(fitMaxBytes(body(entries), 'entries', cap));
    }
  });
});
