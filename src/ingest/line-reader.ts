// Reads a file's lines from a byte offset with synchronous reads into one reused buffer.
//
// Why sync and hand-split: streams and readline cost 4–8 s per GB more than `readSync` into a
// reused buffer (performance-notes.md). Lines are split on '\n' only (U+2028 and friends are
// valid inside JSON strings). A line longer than the buffer grows it for that line only, so a
// 60 MB line is read whole once and memory returns to the default afterwards.

import { closeSync, openSync, readSync } from 'node:fs';
import { heldBytes, linesOfBytes } from './held-bytes.js';

export const DEFAULT_BUFFER_BYTES = 4 * 1024 * 1024;

export interface RawLine {
  /** 1-based physical line number. */
  lineNumber: number;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** The line's bytes without the '\n' (a view into the reader's buffer: copy to keep). */
  bytes: Buffer;
  /** False for a last line that has no newline yet. */
  complete: boolean;
}

export interface LineReaderOptions {
  /** Byte offset to start at (must be the start of a line). */
  offset?: number;
  /** Line number of the line at `offset`. */
  lineNumber?: number;
  /** Stop before this byte offset (the size seen when the ingest started). */
  end?: number;
  bufferBytes?: number;
  /**
   * Open the file for each read instead of holding it open: a reader kept across chunks
   * (chunk-parser.ts) may be dropped mid-file (a failed ingest, a terminated worker), and must
   * not leak its descriptor then.
   */
  reopen?: boolean;
}

/**
 * Iterate the lines of `path` from `offset`. Each yielded `bytes` is only valid until the next
 * iteration. Reading stops at `end` (bytes appended meanwhile wait for the next ingest).
 *
 * @example for (const line of readLines('/tmp/a.jsonl')) console.log(line.lineNumber, line.bytes.length);
 */
export function* readLines(path: string, options: LineReaderOptions = {}): Generator<RawLine> {
  // A source made in memory (database rows, held-bytes.ts) is read from its bytes.
  const held = heldBytes(path);
  if (held) return yield* linesOfBytes(held, options);
  const end = options.end ?? Number.POSITIVE_INFINITY;
  // Small files get a small buffer: allocating 4 MiB per file dominates a folder of tiny files.
  const bufferBytes =
    options.bufferBytes ?? Math.min(DEFAULT_BUFFER_BYTES, Math.max(64 * 1024, end - (options.offset ?? 0) + 1));
  let buf = Buffer.allocUnsafe(bufferBytes);
  let filePos = options.offset ?? 0;
  let lineNumber = options.lineNumber ?? 1;
  // buf[start, filled) holds bytes not yet yielded; bufFileOffset is the file offset of buf[0].
  let start = 0;
  let filled = 0;
  let bufFileOffset = filePos;
  const reopen = options.reopen ?? false;
  let fd = reopen ? -1 : openSync(path, 'r');
  try {
    for (;;) {
      const want = Math.min(buf.length - filled, end - filePos);
      let n = 0;
      if (want > 0) {
        if (reopen) fd = openSync(path, 'r');
        try {
          n = readSync(fd, buf, filled, want, filePos);
        } finally {
          if (reopen) {
            closeSync(fd);
            fd = -1;
          }
        }
      }
      filePos += n;
      filled += n;
      const eof = n === 0;
      let nl = buf.indexOf(10, start);
      while (nl !== -1 && nl < filled) {
        yield { lineNumber, offset: bufFileOffset + start, bytes: buf.subarray(start, nl), complete: true };
        lineNumber++;
        start = nl + 1;
        nl = buf.indexOf(10, start);
      }
      if (eof) {
        if (start < filled) {
          yield { lineNumber, offset: bufFileOffset + start, bytes: buf.subarray(start, filled), complete: false };
        }
        return;
      }
      // Keep the unfinished tail: move it to the front, growing the buffer when one line fills it.
      const tail = filled - start;
      if (start === 0 && tail === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, tail);
        buf = bigger;
      } else if (tail > 0) {
        if (buf.length > bufferBytes && tail <= bufferBytes / 2) {
          const normal = Buffer.allocUnsafe(bufferBytes);
          buf.copy(normal, 0, start, filled);
          buf = normal;
        } else {
          buf.copy(buf, 0, start, filled);
        }
      } else if (buf.length > bufferBytes) {
        buf = Buffer.allocUnsafe(bufferBytes);
      }
      bufFileOffset += start;
      filled = tail;
      start = 0;
    }
  } finally {
    if (fd !== -1) closeSync(fd);
  }
}
