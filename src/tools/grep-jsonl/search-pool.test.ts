// A search job that fails on a worker thread (a stored block that does not inflate, a live file
// whose reads fail) reaches the main thread as the error it was there: a HindsightError with its
// code and details (file, line), not a message string. With onFailed the search goes on with the
// other jobs, answered in order; without, the search fails with that error. Runs the compiled
// worker: `npm run build` first.

import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { HindsightError } from '../../core/errors.js';
import { planUserSearch } from '../../core/safe-regex.js';
import { SearchSession } from './search-pool.js';
import type { PackedBlock } from './search-worker.js';

const LINES = '{"a":"HIT"}\n{"b":1}\n';

function packed(data: Buffer, firstLine: number): PackedBlock {
  return {
    packed: { data, rawBytes: Buffer.byteLength(LINES) },
    where: { file: 'projects/p/s.jsonl', firstLine },
    starts: Int32Array.from([0, 12]),
    lengths: Int32Array.from([11, 7]),
    lastIncomplete: false,
    only: null,
  };
}
const good = (firstLine: number) => packed(brotliCompressSync(Buffer.from(LINES)), firstLine);
const damaged = (firstLine: number) => packed(Buffer.from('not brotli: garbage'), firstLine);
/** A descriptor nothing has open: every read of it fails (EBADF). */
const NO_FILE = 999_999;

/** What the caller heard, in order. */
function listener(seen: unknown[], name: string) {
  return {
    matched: (lines: number[]) => void seen.push({ [name]: lines }),
    failed: (err: Error) => void seen.push({ [name]: err }),
  };
}

describe('SearchSession, a job that fails on the worker', () => {
  it('gives onFailed the error with its code and details, and answers the other jobs in order', async () => {
    const session = await SearchSession.open(await planUserSearch('HIT'), Date.now() + 30_000);
    const seen: unknown[] = [];
    for (const [name, block] of [['first', good(1)], ['damaged', damaged(3)], ['after', good(5)]] as const) {
      const on = listener(seen, name);
      session.submitPacked(block, on.matched, on.failed);
    }
    const range = listener(seen, 'range');
    session.submitRange({ fd: NO_FILE, from: 0, to: 100, size: 100, file: 'projects/p/gone.jsonl' }, (found) => range.matched([...found.matched]), range.failed);
    expect(await session.finish()).toBe('done');

    expect(seen.map((s) => Object.keys(s as object)[0])).toEqual(['first', 'damaged', 'after', 'range']);
    expect(seen[0]).toEqual({ first: [0] });
    expect(seen[2]).toEqual({ after: [0] });
    const evidence = (seen[1] as { damaged: HindsightError }).damaged;
    expect(evidence).toBeInstanceOf(HindsightError);
    expect(evidence.code).toBe('EVIDENCE_DAMAGED');
    expect(evidence.details).toEqual({ file: 'projects/p/s.jsonl', line: 3, reason: 'Decompression failed' });
    expect(evidence.message).toContain('projects/p/s.jsonl from line 3');
    const live = (seen[3] as { range: HindsightError }).range;
    expect(live).toBeInstanceOf(HindsightError);
    expect(live.code).toBe('SOURCE_UNREADABLE');
    expect(live.details).toMatchObject({ file: 'projects/p/gone.jsonl', reason: expect.stringContaining('EBADF') });
  });

  it('fails the search with that error when the caller gives no onFailed', async () => {
    const session = await SearchSession.open(await planUserSearch('HIT'), Date.now() + 30_000);
    session.submitPacked(damaged(7), () => {});
    const failure = await session.finish().then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(HindsightError);
    expect(failure).toMatchObject({ code: 'EVIDENCE_DAMAGED', details: { file: 'projects/p/s.jsonl', line: 7 } });
  });
});
