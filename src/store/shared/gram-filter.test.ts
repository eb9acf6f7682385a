import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../test/helpers.js';
import { gramFilter, gramProbe, mayHold } from './gram-filter.js';

/** A deterministic mix of JSON, upper- and lower-case ASCII, multi-byte UTF-8 and arbitrary bytes. */
function mixedBytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  const pieces = [Buffer.from('{"Type":"Assistant","ID":"toolu_01ABcd"}\n'), Buffer.from('naïve CAFÉ – 🙂 '), Buffer.from('ERROR error ErRoR ')];
  for (let i = 0; i < n; ) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    if (x % 3 === 0) {
      const p = pieces[(x >>> 8) % pieces.length]!;
      i += p.copy(out, i);
    } else out[i++] = (x >>> 16) & 0xff;
  }
  return out;
}

/** Swap the case of every ASCII letter. */
function swapCase(b: Buffer): Buffer {
  return Buffer.from(b.map((c) => ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? c ^ 32 : c)));
}

/** The fixture JSONL files' bytes, joined (real session logs). */
function fixtureBytes(): Buffer {
  const parts: Buffer[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.jsonl')) parts.push(readFileSync(path));
    }
  };
  walk(join(FIXTURES, 'claude-code'));
  return Buffer.concat(parts);
}

describe('gram filter', () => {
  it('never rules out bytes the block holds: every substring, in either ASCII case, at every size of block', () => {
    for (const size of [0, 1, 3, 4, 5, 7, 100, 1000, 5000, 70_000, 600_000]) {
      const block = mixedBytes(size, size + 1);
      const filter = gramFilter(block);
      // A block not aligned to 4 bytes is read byte-wise: the same filter.
      const unaligned = Buffer.alloc(size + 1).fill(block, 1).subarray(1);
      expect(unaligned.byteOffset % 4).not.toBe(0);
      expect(gramFilter(unaligned).equals(filter)).toBe(true);
      const step = Math.max(1, Math.floor(size / 400));
      for (let at = 0; at + 4 <= size; at += step) {
        for (const len of [4, 5, 9, 36]) {
          if (at + len > size) continue;
          const piece = block.subarray(at, at + len);
          expect(mayHold(filter, gramProbe(piece)!)).toBe(true);
          expect(mayHold(filter, gramProbe(swapCase(piece))!)).toBe(true);
        }
      }
    }
  });

  it('rules out a rare id in a block of real JSONL, and stays small beside it', () => {
    const block = fixtureBytes().subarray(0, 512 * 1024);
    const filter = gramFilter(block);
    // ~4–8 KiB for a block of 512 KiB: 1–2% of its bytes (5–10% of its brotli-compressed size).
    expect(filter.length).toBeLessThanOrEqual(16 * 1024 + 1);
    let ruledOut = 0;
    for (let i = 0; i < 100; i++) {
      const id = Buffer.from(`toolu_${(i * 7919 + 104729).toString(36).padStart(8, 'q')}zz${i}`);
      expect(block.includes(id)).toBe(false);
      if (!mayHold(filter, gramProbe(id)!)) ruledOut++;
    }
    expect(ruledOut).toBeGreaterThanOrEqual(95);
    // A short block that holds none of the literal's grams rules it out.
    expect(mayHold(gramFilter(Buffer.from('wxyz')), gramProbe(Buffer.from('abcd'))!)).toBe(false);
    expect(mayHold(gramFilter(Buffer.from('abc')), gramProbe(Buffer.from('abcd'))!)).toBe(false);
  });

  it('has no probe for fewer than 4 bytes, and says "may hold" for a missing or unknown filter', () => {
    expect(gramProbe(Buffer.from('abc'))).toBeNull();
    const probe = gramProbe(Buffer.from('absent-literal'))!;
    expect(mayHold(null, probe)).toBe(true);
    expect(mayHold(undefined, probe)).toBe(true);
    const future = Buffer.from(gramFilter(Buffer.from('x'.repeat(10_000))));
    expect(mayHold(future, gramProbe(Buffer.from('XXXXXXX'))!)).toBe(true);
    expect(mayHold(future, probe)).toBe(false);
    future[0] = 2; // a layout this build does not know
    expect(mayHold(future, probe)).toBe(true);
  });
});
