// Evidence compression keeps at most COMPRESSING_AT_ONCE blocks on libuv's pool (evidence.ts says
// why: a heap per pool thread that compresses), and every block still gets its own bytes back.

import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The fast tier runs test files in one process, where this mock can outlive the file (another
// file's ingest once met it through a fixture line holding ECONNREFUSED): outside this file's
// tests it is the real function, and the refusal needs a marker no log holds.
const state = vi.hoisted(() => ({ active: false, running: 0, most: 0 }));
const REFUSE = 'hindsight-test:refuse-compression';
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  return {
    ...zlib,
    brotliCompress: (raw: Buffer, options: object, done: (err: Error | null, out: Buffer) => void) => {
      if (!state.active) return zlib.brotliCompress(raw, options, done);
      // What zlib does with options it refuses: throw before any work is queued.
      if (raw.includes(REFUSE)) throw new Error('refused before the pool took it');
      state.running++;
      state.most = Math.max(state.most, state.running);
      zlib.brotliCompress(raw, options, (err, out) =>
        // Finish on a later turn, so that every call made meanwhile is counted as overlapping.
        setTimeout(() => {
          state.running--;
          done(err, out);
        }, 5),
      );
    },
  };
});
beforeAll(() => {
  state.active = true;
});
afterAll(() => {
  state.active = false;
});

// Loaded afresh, so that it imports the counting brotliCompress: the fast tier runs test files in
// one process, where an earlier file may have loaded evidence.js with the real one.
vi.resetModules();
const { COMPRESSING_AT_ONCE, compressBlock } = await import('./evidence.js');

describe('compressBlock', () => {
  it(`runs at most ${COMPRESSING_AT_ONCE} at once and answers each block with its own compressed bytes`, async () => {
    // Each above IN_PLACE_BYTES, so each goes to the pool.
    const blocks = Array.from({ length: 9 }, (_, i) => Buffer.from(`{"block":${i}}\n`.repeat(400 + i)));
    const out = await Promise.all(blocks.map((b) => compressBlock(b)));
    expect(state.most).toBe(COMPRESSING_AT_ONCE);
    expect(state.running).toBe(0);
    out.forEach((data, i) => expect(brotliDecompressSync(data).equals(blocks[i]!)).toBe(true));
  });

  it('frees the slot of a block whose compression throws at once, so every later block still compresses', async () => {
    const refused = Array.from({ length: COMPRESSING_AT_ONCE }, () => Buffer.from(`${REFUSE}\n`.repeat(200)));
    const fine = Array.from({ length: 3 }, (_, i) => Buffer.from(`{"fine":${i}}\n`.repeat(600)));
    const settled = Promise.allSettled([...refused, ...fine].map((b) => compressBlock(b)));
    const timeout = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 5000));
    const out = await Promise.race([settled, timeout]);
    expect(out).not.toBe('stuck');
    const results = out as PromiseSettledResult<Buffer>[];
    expect(results.slice(0, COMPRESSING_AT_ONCE).map((r) => r.status)).toEqual(refused.map(() => 'rejected'));
    results.slice(COMPRESSING_AT_ONCE).forEach((r, i) => {
      expect(r.status).toBe('fulfilled');
      expect(brotliDecompressSync((r as PromiseFulfilledResult<Buffer>).value).equals(fine[i]!)).toBe(true);
    });
  });
});
