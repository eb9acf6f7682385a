// Where grep reads a ledger file from: the source itself ("live") while it looks exactly like what
// was ingested (same size and mtime — the test ingest uses to skip a file — and no held-back last
// line), else the stored evidence. Reading the plain file skips decompression, most of a scan's
// cost; the evidence is what makes grep answer after the source is deleted or rewritten. Both give
// the same blocks to the scanner, and each block says which it came from, because size and mtime
// can lie (an in-place edit that keeps the size, then a touch): the caller checks the live lines
// it returns against the evidence (index.ts) and falls back to the evidence when they differ.
//
// Reading pauses while the search worker is far behind (`backlog`), so memory stays bounded; a
// paused evidence scan is restarted after the last block handed over (the store's scan has no
// resume point; re-reading the prefix costs decompression only, and only when matching is slower).

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EvidenceBlockView, Store } from '../../store/store.js';
import type { LedgerFile } from '../ledger-address.js';

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

/** One block per ~4 MiB of whole lines, lines split on '\n' only (as the evidence is). Resolves false when the visitor stopped the scan. */
async function scanSource(fd: number, f: LedgerFile, visit: Visit, control: ScanControl): Promise<boolean> {
  let position = 0;
  let lineNumber = 1;
  while (position < f.size) {
    let buffer = Buffer.allocUnsafe(Math.min(SOURCE_BLOCK, f.size - position));
    let filled = readSync(fd, buffer, 0, buffer.length, position);
    let end = buffer.lastIndexOf(10, filled - 1);
    while (end === -1 && position + filled < f.size) {
      // A line longer than the block: grow until it ends (the file ends with a newline).
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, f.size - position));
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
      filled += readSync(fd, buffer, filled, buffer.length - filled, position + filled);
      end = buffer.lastIndexOf(10, filled - 1);
    }
    if (end === -1) break; // cannot happen when offset === size; the evidence would have the line
    const data = buffer.subarray(0, end + 1);
    const lines: EvidenceBlockView['lines'] = [];
    for (let start = 0; start <= end; ) {
      const nl = data.indexOf(10, start);
      lines.push({ lineNumber: lineNumber++, start, length: nl - start, status: 'ok' });
      start = nl + 1;
    }
    if (visit({ fileId: f.fileId, file: f.file, data, lines }, 'live') === false) return false;
    position += end + 1;
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

/** Visit the blocks of every file in order, from the unchanged source or from the evidence. */
export async function scanLedgerFiles(store: Store, files: LedgerFile[], visit: Visit, control: ScanControl): Promise<void> {
  for (const f of files) {
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
