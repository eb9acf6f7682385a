// Sources whose bytes are made in memory instead of read from a file: the rows of a database table
// serialised as JSONL (sqlite-rows.ts). While such a source is being ingested its bytes are held
// here under the source's path, and the line reader, the stored-prefix check and the duplicate-
// source check read them exactly as they would read a file. Kept free of any database module so
// that everything that reads lines can consult it for nothing.

import type { LineReaderOptions, RawLine } from './line-reader.js';

const held = new Map<string, Buffer>();

/** Hold `bytes` as the content of the source named `path` until `releaseBytes(path)`. */
export function holdBytes(path: string, bytes: Buffer): void {
  held.set(path, bytes);
}

/** The bytes held for `path`, or undefined when `path` is an ordinary file. */
export function heldBytes(path: string): Buffer | undefined {
  return held.get(path);
}

/** Forget the bytes of `path` (its ingest is over). */
export function releaseBytes(path: string): void {
  held.delete(path);
}

/**
 * The lines of held bytes from `options.offset`, as `readLines` yields a file's: split on '\n'
 * only, the last one `complete: false` when no newline ends it, reading stopped at `options.end`.
 */
export function* linesOfBytes(bytes: Buffer, options: LineReaderOptions = {}): Generator<RawLine> {
  const end = Math.min(options.end ?? bytes.length, bytes.length);
  let start = options.offset ?? 0;
  let lineNumber = options.lineNumber ?? 1;
  while (start < end) {
    const nl = bytes.indexOf(10, start);
    if (nl === -1 || nl >= end) {
      yield { lineNumber, offset: start, bytes: bytes.subarray(start, end), complete: false };
      return;
    }
    yield { lineNumber, offset: start, bytes: bytes.subarray(start, nl), complete: true };
    lineNumber++;
    start = nl + 1;
  }
}
