import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES, EvidenceBuilder } from './evidence.js';
import { lineHash } from '../core/line-hash.js';
import type { LineStatus } from './parse-file.js';

/** Lines of assorted sizes: many small ones, one longer than a block, a blank one, an incomplete last one. */
function sampleLines(): { bytes: Buffer; status: LineStatus }[] {
  const out: { bytes: Buffer; status: LineStatus }[] = [];
  for (let i = 0; i < 3000; i++) out.push({ bytes: Buffer.from(JSON.stringify({ i, text: 'x'.repeat(i % 700) })), status: 'ok' });
  out.push({ bytes: Buffer.alloc(0), status: 'blank' });
  out.push({ bytes: Buffer.from(`{"huge":"${'y'.repeat(BLOCK_BYTES + 1234)}"}`), status: 'ok' });
  for (let i = 0; i < 500; i++) out.push({ bytes: Buffer.from(`{"n":${i}}`), status: 'ok' });
  out.push({ bytes: Buffer.from('{"torn":'), status: 'incomplete' });
  return out;
}

describe('evidence blocks', () => {
  it.each([Number.POSITIVE_INFINITY, 100])('hold each line once, in order, sealed at the block size (size hint %s)', async (hint) => {
    const lines = sampleLines();
    const builder = new EvidenceBuilder(hint);
    let offset = 0;
    const file: Buffer[] = [];
    lines.forEach((l, i) => {
      // The reader hands out views of a buffer it reuses: the builder must copy.
      const view = Buffer.from(l.bytes);
      expect(builder.add(i + 1, offset, view, l.status)).toEqual(lineHash(l.bytes));
      view.fill(0);
      const withNewline = l.status === 'incomplete' ? l.bytes : Buffer.concat([l.bytes, Buffer.from('\n')]);
      file.push(withNewline);
      offset += withNewline.length;
    });
    const blocks = await builder.take();
    const whole = Buffer.concat(file);
    let next = 1;
    for (const [k, b] of blocks.entries()) {
      const raw = brotliDecompressSync(b.data);
      expect(raw.length).toBe(b.rawBytes);
      expect(raw.equals(whole.subarray(b.firstOffset, b.firstOffset + b.rawBytes))).toBe(true);
      expect(b.firstLine).toBe(next);
      next += b.lines.length;
      // A block closes as soon as it reaches the block size (or before an incomplete line, which stands alone).
      const last = b.lines[b.lines.length - 1]!;
      if (k < blocks.length - 2) expect(b.rawBytes - (last.length + 1)).toBeLessThan(BLOCK_BYTES);
      if (k < blocks.length - 2) expect(b.rawBytes).toBeGreaterThanOrEqual(BLOCK_BYTES);
      for (const l of b.lines) expect(l.hash).toEqual(lineHash(lines[l.lineNumber - 1]!.bytes));
    }
    expect(next).toBe(lines.length + 1);
    expect(blocks[blocks.length - 1]!.lines.map((l) => l.status)).toEqual(['incomplete']);
  });
});
