// A live file split into ranges gives the same lines as one pass over it, whatever the split: a
// line straddling a split belongs to the range it starts in, a line longer than a whole range is
// read on past it, and a last line without a newline is found as the evidence has it. A read that
// fails is SOURCE_UNREADABLE naming the file.

import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { planUserSearch } from '../../core/safe-regex.js';
import { blockSearch } from './block-search.js';
import { searchRange, type RangeFound } from './file-range.js';

/** Every matching line of the file as [line number, byte offset, length], reading it in ranges of `step` bytes. */
function inRanges(fd: number, size: number, step: number, search: ReturnType<typeof blockSearch>): { lines: number; hits: number[][] } {
  let first = 1;
  const hits: number[][] = [];
  for (let from = 0; from < size; from += step) {
    const found: RangeFound = searchRange({ fd, from, to: Math.min(from + step, size), size, file: 'f.jsonl' }, search);
    found.matched.forEach((k, j) => hits.push([first + k, found.starts[j]!, found.lengths[j]!]));
    first += found.lineCount;
  }
  return { lines: first - 1, hits };
}

/** The same, from the text split on '\n' in one go. */
function oneGo(text: Buffer, needle: string): { lines: number; hits: number[][] } {
  const hits: number[][] = [];
  let lines = 0;
  for (let start = 0; start < text.length; lines++) {
    const nl = text.indexOf(10, start);
    const end = nl === -1 ? text.length : nl;
    if (text.subarray(start, end).includes(needle)) hits.push([lines + 1, start, end - start]);
    start = end + 1;
  }
  return { lines, hits };
}

describe('searchRange', () => {
  const long = `{"text":"${'é'.repeat(300)}HIT in a long line${'x'.repeat(500)}"}`;
  const lines = ['{"a":"HIT one"}', '{"b":"miss"}', long, '', '{"c":"HIT café"}', '{"d":"miss"}', '{"e":"HIT"}'];

  for (const [name, text] of [
    ['ending with a newline', `${lines.join('\n')}\n`],
    ['whose last line has no newline', lines.join('\n')],
  ] as const) {
    it(`gives the lines of one pass for every split of a file ${name}`, async () => {
      const path = join(tempDir('hs-range-'), 'f.jsonl');
      const bytes = Buffer.from(text);
      writeFileSync(path, bytes);
      const fd = openSync(path, 'r');
      try {
        for (const pattern of ['HIT', 'HIT.*']) {
          const search = blockSearch(await planUserSearch(pattern));
          const expected = oneGo(bytes, 'HIT');
          expect(expected.hits.length).toBe(4);
          for (let step = 1; step <= bytes.length + 1; step++) {
            expect(inRanges(fd, bytes.length, step, search), `pattern ${pattern}, ranges of ${step} bytes`).toEqual(expected);
          }
        }
      } finally {
        closeSync(fd);
      }
    });
  }

  it('gives the lines of one pass when a range is read a piece at a time (lines across pieces, one longer than two pieces)', async () => {
    const path = join(tempDir('hs-range-'), 'f.jsonl');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0);
    const rows: string[] = [];
    for (let bytes = 0; bytes < 5.5 * (1 << 20); ) {
      const n = rows.length === 300 ? 2.5 * (1 << 20) : 100 + (next() % 20_000); // one line longer than two 1 MiB pieces
      const row = `{"n":${rows.length},"t":"${'x'.repeat(n)}${next() % 3 === 0 ? 'HIT' : ''}"}`;
      rows.push(row);
      bytes += row.length + 1;
    }
    for (const text of [`${rows.join('\n')}\n`, rows.join('\n')]) {
      const bytes = Buffer.from(text);
      writeFileSync(path, bytes);
      const fd = openSync(path, 'r');
      try {
        const search = blockSearch(await planUserSearch('HIT'));
        const expected = oneGo(bytes, 'HIT');
        expect(expected.hits.length).toBeGreaterThan(50);
        for (const step of [bytes.length, 4 << 20, (3 << 20) + 12_345]) expect(inRanges(fd, bytes.length, step, search), `ranges of ${step} bytes`).toEqual(expected);
      } finally {
        closeSync(fd);
      }
    }
  });

  it('reads no further than the size it was given (bytes appended since the check are not searched)', async () => {
    const path = join(tempDir('hs-range-'), 'f.jsonl');
    writeFileSync(path, '{"a":"HIT"}\n{"b":"HIT appended"}\n');
    const fd = openSync(path, 'r');
    try {
      const found = searchRange({ fd, from: 0, to: 12, size: 12, file: 'f.jsonl' }, blockSearch(await planUserSearch('HIT')));
      expect(found.lineCount).toBe(1);
      expect([...found.matched]).toEqual([0]);
    } finally {
      closeSync(fd);
    }
  });
  it('ends at the file\'s end when the file shrank after the check, mid-line, and reports nothing past it', async () => {
    const path = join(tempDir('hs-range-'), 'f.jsonl');
    const whole = '{"a":"HIT one"}\n{"b":"HIT two"}\n{"c":"HIT three"}\n';
    writeFileSync(path, whole);
    const size = Buffer.byteLength(whole);
    // Cut inside the second line: the checked size (its old one) now runs past the end.
    writeFileSync(path, whole.slice(0, 22));
    const fd = openSync(path, 'r');
    try {
      const found = searchRange({ fd, from: 0, to: size, size, file: 'f.jsonl' }, blockSearch(await planUserSearch('HIT')));
      // The first line whole, the cut second one as far as it goes ('{"b":"', before its HIT).
      expect(found.lineCount).toBe(2);
      expect([...found.matched]).toEqual([0]);
      expect([...found.lengths]).toEqual([15]);
      const tail = searchRange({ fd, from: 30, to: size, size, file: 'f.jsonl' }, blockSearch(await planUserSearch('HIT')));
      expect(tail.lineCount).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it('reads a line far longer than its buffer whole (a 5 MiB line), and the lines around it', async () => {
    const path = join(tempDir('hs-range-'), 'f.jsonl');
    const long = `{"big":"${'x'.repeat(5 << 20)}HIT"}`;
    const text = `{"a":1}\n${long}\n{"c":"HIT"}\n`;
    writeFileSync(path, text);
    const size = Buffer.byteLength(text);
    const fd = openSync(path, 'r');
    try {
      const found = searchRange({ fd, from: 0, to: size, size, file: 'f.jsonl' }, blockSearch(await planUserSearch('HIT')));
      expect(found.lineCount).toBe(3);
      expect([...found.matched]).toEqual([1, 2]);
      expect(found.lengths[0]).toBe(long.length);
      expect(found.starts[1]).toBe(8 + long.length + 1);
    } finally {
      closeSync(fd);
    }
  });

  it('says SOURCE_UNREADABLE naming the file when a read fails', async () => {
    const fd = 999_999; // open nowhere: every read fails (EBADF)
    const search = blockSearch(await planUserSearch('HIT'));
    expect(() => searchRange({ fd, from: 0, to: 12, size: 12, file: 'projects/p/f.jsonl' }, search)).toThrow(
      expect.objectContaining({ code: 'SOURCE_UNREADABLE', details: expect.objectContaining({ file: 'projects/p/f.jsonl' }), message: expect.stringContaining('projects/p/f.jsonl could not be read') }),
    );
  });
});
