// Visiting evidence blocks in reading order, the same for both engines: decompression runs a few
// blocks ahead on the thread pool while the caller looks at the current one, and stops early when
// the visitor says so. Or the blocks left compressed (visitPackedBlocks), for a caller that
// inflates them on its own threads (inflateEvidence): Node's async brotli runs each block through
// a stream on the calling thread (~1 s of its CPU per 300 MB beside the thread pool's), while
// brotliDecompressSync on a worker costs the inflation alone.

import { brotliDecompress, brotliDecompressSync } from './brotli.js';
import { EvidenceDamaged } from '../../core/errors.js';
import { unpackLineBounds } from '../sqlite/line-index.js';
import type { EvidenceBlockView, PackedEvidence, PackedEvidenceBlockView } from '../store.js';

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

/** One output chunk per block: the default 16 KiB chunks cost a round trip each (and, on the thread pool, made the async path twice as slow as decompressing on the main thread). */
const chunkFor = (rawBytes: number) => ({ chunkSize: Math.max(64 * 1024, rawBytes + 1) });

/** The block's lines, offsets from the start of the block. */
function blockLines(row: StoredBlock): EvidenceBlockView['lines'] {
  return unpackLineBounds(row.line_index, row.first_line);
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
      const raw = brotliDecompress(row.data, chunkFor(row.raw_bytes)).then(
        (bytes) => checkedSize(bytes, row.raw_bytes, file, row.first_line),
        (err: Error) => Promise.reject(EvidenceDamaged(file, row.first_line, err.message)),
      );
      raw.catch(() => undefined); // awaited in order below; one ahead failing while an earlier one throws is not unhandled
      pending.push(raw);
    }
  };
  fill();
  for (const row of rows) {
    const data = await pending.shift()!;
    fill();
    if (visit({ fileId, file, data, lines: blockLines(row) }) === false) {
      await Promise.allSettled(pending);
      return false;
    }
  }
  return true;
}

/** Visit `rows` left compressed; false when the visitor stopped the scan. */
export function visitPackedBlocks(
  rows: readonly StoredBlock[],
  fileId: number,
  file: string,
  visit: (block: PackedEvidenceBlockView) => boolean | void,
): boolean {
  for (const row of rows) {
    if (visit({ fileId, file, lines: blockLines(row), packed: { data: row.data, rawBytes: row.raw_bytes } }) === false) return false;
  }
  return true;
}

/**
 * A stored block's bytes, inflated here (synchronous: a worker thread's, or a page of lines). A
 * blob that does not inflate, or inflates to another size than its row records (truncated or
 * altered in the store), is EVIDENCE_DAMAGED naming the file and line: never other lines.
 */
export function inflateBlock(data: Buffer, rawBytes: number | null, file: string, firstLine: number): Buffer {
  let raw: Buffer;
  try {
    raw = brotliDecompressSync(data, chunkFor(rawBytes ?? 0));
  } catch (err) {
    throw EvidenceDamaged(file, firstLine, (err as Error).message);
  }
  return checkedSize(raw, rawBytes, file, firstLine);
}

function checkedSize(raw: Buffer, rawBytes: number | null, file: string, firstLine: number): Buffer {
  if (rawBytes !== null && raw.length !== rawBytes) throw EvidenceDamaged(file, firstLine, `${raw.length} bytes where ${rawBytes} were stored`);
  return raw;
}

/** A packed block's bytes (synchronous: for a worker thread), `file` and `firstLine` saying where it is. */
export function inflateEvidence(packed: PackedEvidence, file: string, firstLine: number): Buffer {
  return inflateBlock(packed.data, packed.rawBytes, file, firstLine);
}
