import { brotliCompress, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES, BROTLI_OPTIONS, compressBlock, EvidenceBuilder, IN_PLACE_BYTES } from './evidence.js';
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

  it('compresses a small block at once and a larger one on the thread pool, to the same bytes either way', async () => {
    const text = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => `{"i":${i},"t":"row ${i % 37}"}\n`).join('').slice(0, n));
    const pooled = (raw: Buffer) =>
      new Promise<Buffer>((resolve, reject) => brotliCompress(raw, BROTLI_OPTIONS(raw.length), (err, out) => (err ? reject(err) : resolve(out))));
    for (const size of [1, 600, IN_PLACE_BYTES, IN_PLACE_BYTES + 1, 64 * 1024]) {
      const raw = text(size);
      let settled = false;
      const out = compressBlock(raw).then((data) => {
        settled = true;
        return data;
      });
      // Two microtask turns and no I/O: only a block compressed in place can be done by now.
      await Promise.resolve();
      await Promise.resolve();
      expect({ size, settled }).toEqual({ size, settled: size <= IN_PLACE_BYTES });
      const data = await out;
      expect(brotliDecompressSync(data).equals(raw)).toBe(true);
      expect(data.equals(await pooled(raw))).toBe(true);
    }
  });
});

describe('evidence buffers and output room', () => {
  it('gives a block that compresses far worse than the one before it all of its bytes', async () => {
    // The output room follows the last block's ratio: a run of zeros leaves almost none, then
    // random bytes (which do not compress) need more than that room.
    const zeros = Buffer.alloc(256 * 1024);
    const noise = Buffer.from(Array.from({ length: 256 * 1024 }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 13) & 0xff));
    for (const raw of [zeros, noise, zeros, noise]) expect(brotliDecompressSync(await compressBlock(raw)).equals(raw)).toBe(true);
  });

  it('keeps each block its own bytes when a later block is built in the buffer of one already compressed', async () => {
    const builder = new EvidenceBuilder();
    const line = (n: number) => Buffer.from(JSON.stringify({ n, text: `line ${n} `.repeat(40) }));
    const blocks = [];
    let n = 0;
    let offset = 0;
    const addBytes = (total: number) => {
      for (let bytes = 0; bytes < total; n++) {
        const l = line(n);
        builder.add(n + 1, offset, l, 'ok');
        offset += l.length + 1;
        bytes += l.length + 1;
      }
    };
    for (let round = 0; round < 6; round++) {
      // A block and more, then wait until it is compressed, so the next block reuses its buffer.
      addBytes(BLOCK_BYTES + 1000);
      blocks.push(...(await builder.take()));
    }
    // Many blocks at once, while earlier ones are still on the pool: none may be built in a buffer still being compressed.
    addBytes(12 * BLOCK_BYTES);
    blocks.push(...(await builder.take()));
    const expected = Array.from({ length: n }, (_, i) => `${line(i).toString()}\n`).join('');
    const stored = blocks.map((b) => brotliDecompressSync(b.data).toString()).join('');
    expect(blocks.length).toBeGreaterThanOrEqual(18);
    expect(stored).toBe(expected);
  });
});
