// Where grep reads a ledger file from: the source itself while it is exactly what was ingested
// (same size and mtime — the test ingest uses to skip a file — and no held-back last line),
// else the stored evidence. Reading the plain file skips decompression, most of a scan's cost;
// the evidence is what makes grep answer after the source is deleted or rewritten. Both give
// the same bytes and line numbers, and the same blocks to the scanner.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { EvidenceBlockView, Store } from '../../store/store.js';
import type { LedgerFile } from '../ledger-address.js';

type Visit = (block: EvidenceBlockView) => boolean | void;

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

/** One block per ~4 MiB of whole lines, lines split on '\n' only (as the evidence is). */
function scanSource(fd: number, f: LedgerFile, visit: Visit): boolean {
  let position = 0;
  let lineNumber = 1;
  let buffer = Buffer.allocUnsafe(SOURCE_BLOCK);
  while (position < f.size) {
    let filled = readSync(fd, buffer, 0, Math.min(buffer.length, f.size - position), position);
    let end = buffer.lastIndexOf(10, filled - 1);
    while (end === -1 && position + filled < f.size) {
      // A line longer than the block: grow until it ends (the file ends with a newline).
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
      filled += readSync(fd, buffer, filled, Math.min(buffer.length - filled, f.size - position - filled), position + filled);
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
    if (visit({ fileId: f.fileId, file: f.file, data, lines }) === false) return false;
    position += end + 1;
  }
  return true;
}

/** Visit the blocks of every file in order, from the unchanged source or from the evidence. */
export async function scanLedgerFiles(store: Store, files: LedgerFile[], visit: Visit): Promise<void> {
  for (const f of files) {
    const fd = openUnchanged(f);
    if (fd !== null) {
      try {
        if (!scanSource(fd, f, visit)) return;
      } finally {
        closeSync(fd);
      }
      continue;
    }
    let stopped = false;
    await store.scanEvidence([f.fileId], (block) => {
      if (visit(block) === false) {
        stopped = true;
        return false;
      }
    });
    if (stopped) return;
  }
}
