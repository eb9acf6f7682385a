// Where grep reads a ledger file from: the source itself ("live") while it looks exactly like what
// was ingested (same size and mtime — the test ingest uses to skip a file — and no held-back last
// line), else the stored evidence. Reading the plain file skips decompression, most of a scan's
// cost; the evidence is what makes grep answer after the source is deleted or rewritten. Both give
// the same blocks to the scanner, and each block says which it came from, because size and mtime
// can lie (an in-place edit that keeps the size, then a touch): the caller checks the live lines
// it returns against the evidence (index.ts) and falls back to the evidence when they differ.
//
// Small files are read a few ahead (live reads and decompressions run on the thread pool, beside
// the search). Reading pauses while the search worker is far behind (`backlog`), so memory stays bounded; a
// paused evidence scan is restarted after the last block handed over (the store's scan has no
// resume point; re-reading the prefix costs decompression only, and only when matching is slower).

import { closeSync, fstatSync, openSync, read } from 'node:fs';
import { promisify } from 'node:util';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EvidenceBlockView, Store } from '../../store/store.js';
import type { LedgerFile } from '../ledger-address.js';
import { recycleBlockBuffer, takeBlockBuffer } from './block-buffers.js';

export type ReadFrom = 'live' | 'evidence';
/** Return false to stop the whole scan. */
type Visit = (block: EvidenceBlockView, from: ReadFrom) => boolean | void;

export interface ScanControl {
  /** A promise to await before reading on (the consumer is behind), or null. */
  backlog(): Promise<void> | null;
  /** Files (by id) to read from the evidence even when the source looks unchanged. */
  evidenceOnly: ReadonlySet<number>;
}

/** Bytes read per block from a source file (extended until the block ends at a newline). */
const SOURCE_BLOCK = 4 * 1024 * 1024;

/** The open source file when it is unchanged since ingest, else null. */
function openUnchanged(f: LedgerFile): number | null {
  if (f.size === 0 || f.offset !== f.size) return null; // nothing stored, or a last line held back
  let fd: number;
  try {
    fd = openSync(f.path, 'r');
  } catch {
    return null; // deleted or unreadable: the evidence answers
  }
  const st = fstatSync(fd);
  if (st.isFile() && st.size === f.size && st.mtimeMs === f.mtimeMs) return fd;
  closeSync(fd);
  return null;
}

const readAt = promisify(read);

/** Fill `buffer[from, to)`, where buffer[i] is the file's byte `position + i` (read on the thread pool, off the event loop); returns the bytes read, fewer only at the end of the file. */
async function readInto(fd: number, buffer: Buffer, from: number, to: number, position: number): Promise<number> {
  let filled = from;
  while (filled < to) {
    const { bytesRead } = await readAt(fd, buffer, filled, to - filled, position + filled);
    if (bytesRead === 0) break; // the file shrank under us
    filled += bytesRead;
  }
  return filled - from;
}

/**
 * The whole lines of the file from `position` on, in ~SOURCE_BLOCK bytes (more for a longer
 * line), with how many bytes of the file they use; null at the end. A last line without a newline
 * (ingest stored it whole: offset === size) is given one, as its evidence is. The buffer is grep's
 * own (block-buffers.ts), so the search worker can take it without a copy.
 */
async function readBlock(fd: number, position: number, left: number): Promise<{ data: Buffer; used: number } | null> {
  // One byte more than the file holds, for the newline a last line without one is given.
  let buffer = takeBlockBuffer(Math.min(SOURCE_BLOCK, left) + 1);
  let filled = await readInto(fd, buffer, 0, buffer.length - 1, position);
  let end = buffer.lastIndexOf(10, filled - 1);
  while (end === -1 && filled === buffer.length - 1 && filled < left) {
    // A line longer than the block: grow until it ends.
    const bigger = takeBlockBuffer(Math.min((buffer.length - 1) * 2, left) + 1);
    buffer.copy(bigger, 0, 0, filled);
    recycleBlockBuffer(buffer);
    buffer = bigger;
    filled += await readInto(fd, buffer, filled, buffer.length - 1, position);
    end = buffer.lastIndexOf(10, filled - 1);
  }
  if (filled === left && filled > 0 && end !== filled - 1) {
    buffer[filled] = 10; // the last line, which ends the file without a newline
    end = filled;
  }
  if (end === -1) return null;
  return { data: buffer.subarray(0, end + 1), used: Math.min(end + 1, left) };
}

/** The block's lines (split on '\n' only, as the evidence is), numbered from `first`. */
function linesOf(data: Buffer, first: number): EvidenceBlockView['lines'] {
  const lines: EvidenceBlockView['lines'] = [];
  for (let start = 0, lineNumber = first; start < data.length; lineNumber++) {
    const nl = data.indexOf(10, start);
    lines.push({ lineNumber, start, length: nl - start, status: 'ok' });
    start = nl + 1;
  }
  return lines;
}

/** One block per ~4 MiB of whole lines. Resolves false when the visitor stopped the scan. */
async function scanSource(fd: number, f: LedgerFile, visit: Visit, control: ScanControl): Promise<boolean> {
  let position = 0;
  let lineNumber = 1;
  while (position < f.size) {
    const block = await readBlock(fd, position, f.size - position);
    if (!block) break;
    const lines = linesOf(block.data, lineNumber);
    lineNumber += lines.length;
    if (visit({ fileId: f.fileId, file: f.file, data: block.data, lines }, 'live') === false) return false;
    position += block.used;
    await (control.backlog() ?? nextTurn()); // let the server answer others between blocks
  }
  return true;
}

/** One file's evidence, in order, pausing (and resuming after the last block handed over) when the consumer is behind. */
async function scanEvidence(store: Store, f: LedgerFile, visit: Visit, control: ScanControl): Promise<boolean> {
  let handedUpTo = 0;
  for (;;) {
    let stopped = false;
    let pause: Promise<void> | null = null;
    await store.scanEvidence([f.fileId], (block) => {
      const last = block.lines[block.lines.length - 1]?.lineNumber;
      if (last === undefined || last <= handedUpTo) return; // empty, or handed over before a pause
      if (visit(block, 'evidence') === false) {
        stopped = true;
        return false;
      }
      handedUpTo = last;
      pause = control.backlog();
      if (pause) return false;
    });
    if (stopped) return false;
    if (!pause) return true;
    await pause;
  }
}

/** A file read whole ahead of its turn: its blocks and where they came from. */
interface Loaded {
  blocks: EvidenceBlockView[];
  from: ReadFrom;
}

/** Files read ahead of the one being visited, so their reads and decompressions overlap (on the thread pool) with the search. */
const AHEAD_FILES = 4;

/** A file of at most one source block, read whole: live when unchanged, else its evidence. */
async function loadWhole(store: Store, f: LedgerFile, control: ScanControl): Promise<Loaded> {
  const fd = control.evidenceOnly.has(f.fileId) ? null : openUnchanged(f);
  if (fd !== null) {
    try {
      const block = await readBlock(fd, 0, f.size);
      if (block && block.used === f.size) return { blocks: [{ fileId: f.fileId, file: f.file, data: block.data, lines: linesOf(block.data, 1) }], from: 'live' };
    } finally {
      closeSync(fd);
    }
  }
  const blocks: EvidenceBlockView[] = [];
  await store.scanEvidence([f.fileId], (block) => void blocks.push(block));
  return { blocks, from: 'evidence' };
}

/**
 * Visit the blocks of every file in order, from the unchanged source or from the evidence. Files
 * of at most one source block (most session logs) are read ahead, AHEAD_FILES at a time: one by
 * one, each file's read or decompression waited for the search of the one before (one core busy
 * of two). Larger files are read block by block, pausing when the search is behind.
 */
export async function scanLedgerFiles(store: Store, files: LedgerFile[], visit: Visit, control: ScanControl): Promise<void> {
  const ahead = new Map<number, Promise<Loaded>>();
  let next = 0;
  const readAhead = (current: number) => {
    for (; next < files.length && next <= current + AHEAD_FILES; next++) {
      if (files[next]!.size > SOURCE_BLOCK) continue;
      const load = loadWhole(store, files[next]!, control);
      load.catch(() => {}); // a scan that stops early never awaits it; one reached is awaited below
      ahead.set(next, load);
    }
  };
  for (let i = 0; i < files.length; i++) {
    readAhead(i);
    const f = files[i]!;
    const load = ahead.get(i);
    if (load) {
      ahead.delete(i);
      const { blocks, from } = await load;
      for (const block of blocks) if (visit(block, from) === false) return;
      await (control.backlog() ?? nextTurn());
      continue;
    }
    const fd = control.evidenceOnly.has(f.fileId) ? null : openUnchanged(f);
    if (fd !== null) {
      try {
        if (!(await scanSource(fd, f, visit, control))) return;
      } finally {
        closeSync(fd);
      }
      continue;
    }
    if (!(await scanEvidence(store, f, visit, control))) return;
  }
}
