// Visiting evidence blocks in reading order, the same for both engines: decompression runs a few
// blocks ahead on the thread pool while the caller looks at the current one, and stops early when
// the visitor says so.

import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { unpackLines } from '../sqlite/line-index.js';
import type { EvidenceBlockView } from '../store.js';

const decompress = promisify(brotliDecompress);
/** Blocks decompressed ahead of the one being visited. */
const SCAN_AHEAD = 4;

/** A stored block as both engines read it. */
export interface StoredBlock {
  first_line: number;
  first_offset: number;
  raw_bytes: number;
  line_index: Buffer;
  data: Buffer;
}

/** Visit `rows` (one file's blocks, in order); resolves false when the visitor stopped the scan. */
export async function visitBlocks(
  rows: readonly StoredBlock[],
  fileId: number,
  file: string,
  visit: (block: EvidenceBlockView) => boolean | void,
): Promise<boolean> {
  const pending: Promise<Buffer>[] = [];
  let next = 0;
  const fill = () => {
    while (pending.length < SCAN_AHEAD && next < rows.length) {
      const row = rows[next++]!;
      // One output chunk per block: the default 16 KiB chunks cost a thread-pool round trip each
      // and made the async path twice as slow as decompressing on the main thread.
      pending.push(decompress(row.data, { chunkSize: Math.max(64 * 1024, row.raw_bytes + 1) }));
    }
  };
  fill();
  for (const row of rows) {
    const data = await pending.shift()!;
    fill();
    const lines = unpackLines(row.line_index, row.first_line, row.first_offset).map((l) => ({
      lineNumber: l.lineNumber,
      start: l.offset - row.first_offset,
      length: l.length,
      status: l.status,
    }));
    if (visit({ fileId, file, data, lines }) === false) {
      await Promise.allSettled(pending);
      return false;
    }
  }
  return true;
}
