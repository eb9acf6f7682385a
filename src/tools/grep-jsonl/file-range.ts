// A live source file searched by the worker itself, a range at a time: the worker reads the bytes
// (readSync on the file descriptor the main thread opened and checked), splits them into lines
// and searches them, and answers with where the matching lines are. The main thread never holds
// the file's bytes: reading, splitting and searching all run on the search workers, so two
// workers keep both cores busy, on one big file (split into ranges) as on many small ones.
//
// A range [from, to) owns the lines that start inside it: it skips the end of a line begun
// before `from` and reads past `to` to finish its last line, so consecutive ranges give every
// line once, whatever the split. A last line without a newline (ingest stored it whole: the
// file's offset equals its size) is given one, as its evidence is.

import { readSync } from 'node:fs';
import type { BlockSearch } from './block-search.js';

/** Part of an open source file to search: the lines that start in [from, to); `size` is the file's size when checked. */
export interface FileRange {
  fd: number;
  from: number;
  to: number;
  size: number;
}

/** The range's lines: how many, and which matched (index from the range's first line, byte offset in the file, length). */
export interface RangeFound {
  lineCount: number;
  matched: Int32Array;
  starts: Float64Array;
  lengths: Int32Array;
}

const START_BYTES = 1 << 20;
/** A buffer grown past this for a long line is not kept: an idle worker stays warm for a long time. */
const KEEP_BYTES = 16 << 20;

/** This worker's read buffer, grown (doubled) for long lines and kept for the next range. */
let buffer = Buffer.allocUnsafeSlow(START_BYTES);

/** The range's lines read through `fd`, searched with `search`. */
export function searchRange(range: FileRange, search: BlockSearch): RangeFound {
  try {
    return readAndSearch(range, search);
  } finally {
    if (buffer.length > KEEP_BYTES) buffer = Buffer.allocUnsafeSlow(START_BYTES);
  }
}

function readAndSearch(range: FileRange, search: BlockSearch): RangeFound {
  const lead = range.from > 0 ? 1 : 0; // the byte before `from`: a newline there means a line starts at `from`
  const base = range.from - lead; // the file position of buffer[0]
  const end = Math.min(range.to, range.size);
  let filled = 0;
  let atEof = false;
  /** Read until buffer holds the file up to `upTo` (exclusive), or its end: never past the size that was checked (bytes appended since are not the evidence's). */
  const fill = (upTo: number) => {
    const want = Math.min(upTo, range.size) - base;
    if (want + 1 > buffer.length) grow(want + 1);
    while (filled < want) {
      const n = readSync(range.fd, buffer, filled, want - filled, base + filled);
      if (n === 0) {
        atEof = true; // the end, or the file shrank under us
        return;
      }
      filled += n;
    }
  };
  const grow = (bytes: number) => {
    let size = buffer.length;
    while (size < bytes) size *= 2;
    const bigger = Buffer.allocUnsafeSlow(size);
    buffer.copy(bigger, 0, 0, filled);
    buffer = bigger;
  };
  /** Index in buffer of the first newline at or after `at`, reading on as needed; -1 at the end of the file. */
  const newlineFrom = (at: number): number => {
    for (;;) {
      const nl = buffer.subarray(0, filled).indexOf(10, at);
      if (nl !== -1) return nl;
      if (atEof || base + filled >= range.size) return -1;
      at = filled;
      fill(base + Math.max(filled * 2, filled + (1 << 20)));
    }
  };
  fill(end);
  let begin = 0;
  if (lead) {
    const nl = newlineFrom(0);
    if (nl === -1 || base + nl + 1 >= end) return none();
    begin = nl + 1;
  }
  if (begin >= filled) return none();
  let last = newlineFrom(end - 1 - base); // the newline that ends the range's last line
  if (last === -1) {
    if (filled <= begin) return none();
    buffer[filled] = 10; // the file's last line, which has no newline (fill kept a byte spare)
    last = filled;
  }
  const data = buffer.subarray(begin, last + 1);
  const { starts, lengths } = linesOf(data);
  const matched = search({ data, starts, lengths, lastIncomplete: false, only: null });
  const found: RangeFound = { lineCount: starts.length, matched: Int32Array.from(matched), starts: new Float64Array(matched.length), lengths: new Int32Array(matched.length) };
  matched.forEach((k, j) => {
    found.starts[j] = base + begin + starts[k]!;
    found.lengths[j] = lengths[k]!;
  });
  return found;
}

function none(): RangeFound {
  return { lineCount: 0, matched: new Int32Array(0), starts: new Float64Array(0), lengths: new Int32Array(0) };
}

/** Start and length of every line of `data`, which ends with a newline (split on '\n' only, as the evidence is). */
function linesOf(data: Buffer): { starts: Int32Array; lengths: Int32Array } {
  let n = 0;
  for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) n++;
  const starts = new Int32Array(n);
  const lengths = new Int32Array(n);
  for (let k = 0, start = 0; k < n; k++) {
    const nl = data.indexOf(10, start);
    starts[k] = start;
    lengths[k] = nl - start;
    start = nl + 1;
  }
  return { starts, lengths };
}
