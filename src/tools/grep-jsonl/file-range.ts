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
import { SourceUnreadable } from '../../core/errors.js';
import type { BlockSearch } from './block-search.js';

/** Part of an open source file to search: the lines that start in [from, to); `size` is the file's size when checked; `file` names it in an error. */
export interface FileRange {
  fd: number;
  from: number;
  to: number;
  size: number;
  file: string;
}

/** The range's lines: how many, and which matched (index from the range's first line, byte offset in the file, length). */
export interface RangeFound {
  lineCount: number;
  matched: Int32Array;
  starts: Float64Array;
  lengths: Int32Array;
}

const START_BYTES = 1 << 20;
/** Bytes read past a piece's end at first to finish its last line. */
const READ_ON = 64 * 1024;
/** Lines' bounds kept for the next piece: grown past KEEP_LINES (a piece of tiny lines), they are not kept either. */
const START_LINES = 1 << 14;
const KEEP_LINES = 1 << 18;
/** A buffer grown past this for a long line is not kept: an idle worker stays warm for a long time. */
const KEEP_BYTES = 16 << 20;

/** This worker's read buffer, grown (doubled) for long lines and kept for the next range. */
let buffer = Buffer.allocUnsafeSlow(START_BYTES);

/**
 * Bytes read and searched at a time: a range is read a piece at a time, each piece's lines
 * searched while the piece is still in the core's cache. Over a 59 MB ledger (`error`, one
 * thread), pieces of 1 MiB took 37 ms of CPU where 4 MiB ones took 43–45 (2026-11-27, both still
 * reading every byte twice, see newlineFrom; 30 ms once each byte was read once); the ranges stay
 * ~4 MiB, one message each way per range.
 */
const PIECE = 1 << 20;

/** The range's lines read through `fd`, searched with `search`; SOURCE_UNREADABLE naming the file when a read fails. */
export function searchRange(range: FileRange, search: BlockSearch): RangeFound {
  try {
    // A piece owns the lines that start in it, as a range does, so the pieces' answers put end to
    // end are the range's; a piece starts past the lines the one before it read on to finish.
    const parts: RangeFound[] = [];
    for (let from = range.from; from < range.to; ) {
      const { found, next } = readAndSearch({ ...range, from, to: Math.min(range.to, from + PIECE) }, search);
      parts.push(found);
      from = Math.max(from + PIECE, next);
    }
    return parts.length === 1 ? parts[0]! : joined(parts);
  } finally {
    if (buffer.length > KEEP_BYTES) buffer = Buffer.allocUnsafeSlow(START_BYTES);
    if (lineStarts.length > KEEP_LINES) [lineStarts, lineLengths] = [new Int32Array(START_LINES), new Int32Array(START_LINES)];
  }
}

/** Consecutive pieces' answers as one (line indexes counted from the first piece's first line). */
function joined(parts: RangeFound[]): RangeFound {
  const hits = parts.reduce((n, p) => n + p.matched.length, 0);
  const out: RangeFound = { lineCount: 0, matched: new Int32Array(hits), starts: new Float64Array(hits), lengths: new Int32Array(hits) };
  let j = 0;
  for (const p of parts) {
    for (let k = 0; k < p.matched.length; k++, j++) {
      out.matched[j] = out.lineCount + p.matched[k]!;
      out.starts[j] = p.starts[k]!;
      out.lengths[j] = p.lengths[k]!;
    }
    out.lineCount += p.lineCount;
  }
  return out;
}

/** A piece's lines, and the file position after the last byte it read as part of a line (where the next piece's first line can start at the earliest). */
function readAndSearch(range: FileRange, search: BlockSearch): { found: RangeFound; next: number } {
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
      const n = readFrom(range, buffer, filled, want - filled, base + filled);
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
    // Read on READ_ON bytes, then twice as many each time the line goes on (a long line is read
    // in a few steps). Reading on as much as was filled took every piece's bytes twice: the
    // pieces' reads of a 59 MB ledger cost 2× their size, for lines of ~2 KB.
    for (let step = READ_ON; ; step *= 2) {
      const nl = buffer.subarray(0, filled).indexOf(10, at);
      if (nl !== -1) return nl;
      if (atEof || base + filled >= range.size) return -1;
      at = filled;
      fill(base + filled + step);
    }
  };
  fill(end);
  let begin = 0;
  if (lead) {
    const nl = newlineFrom(0);
    if (nl === -1) return none(Infinity);
    if (base + nl + 1 >= end) return none(base + nl + 1);
    begin = nl + 1;
  }
  if (begin >= filled) return none(Infinity);
  let last = newlineFrom(end - 1 - base); // the newline that ends the range's last line
  if (last === -1) {
    if (filled <= begin) return none(Infinity);
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
  return { found, next: base + last + 1 };
}

/** readSync, a failure said as SOURCE_UNREADABLE naming the file (the caller may skip the file and go on). */
function readFrom(range: FileRange, into: Buffer, at: number, length: number, position: number): number {
  try {
    return readSync(range.fd, into, at, length, position);
  } catch (err) {
    throw SourceUnreadable(range.file, (err as Error).message);
  }
}

function none(next: number): { found: RangeFound; next: number } {
  return { found: { lineCount: 0, matched: new Int32Array(0), starts: new Float64Array(0), lengths: new Int32Array(0) }, next };
}

/** Line bounds of the piece being searched, kept for the next piece (grown as needed). */
let lineStarts = new Int32Array(START_LINES);
let lineLengths = new Int32Array(START_LINES);

/**
 * Start and length of every line of `data`, which ends with a newline (split on '\n' only, as the
 * evidence is): one pass over the newlines into the kept arrays (views of them, used before the
 * next piece), where counting them first took a second pass.
 */
function linesOf(data: Buffer): { starts: Int32Array; lengths: Int32Array } {
  let n = 0;
  for (let start = 0, nl = data.indexOf(10); nl !== -1; start = nl + 1, nl = data.indexOf(10, start)) {
    if (n === lineStarts.length) {
      const starts = new Int32Array(n * 2);
      const lengths = new Int32Array(n * 2);
      starts.set(lineStarts);
      lengths.set(lineLengths);
      lineStarts = starts;
      lineLengths = lengths;
    }
    lineStarts[n] = start;
    lineLengths[n] = nl - start;
    n++;
  }
  return { starts: lineStarts.subarray(0, n), lengths: lineLengths.subarray(0, n) };
}
