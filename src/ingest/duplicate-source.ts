// The same ledger under two roots (a copied ~/.claude, a backup of a plane root): sessions are
// keyed by id, so reading both would count every turn, event and token twice. A new file is a
// copy of another root's live file of the same format, ledger, session and chain group when the
// bytes both hold agree; the copy is kept as evidence only (no events, no session) and reported
// as `duplicate_source`. When the new file is ahead of the one already read (the first root was
// a stale copy), the roles swap: the older file becomes the evidence-only duplicate.

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { Defect, Format } from '../core/model.js';
import type { SourceFile } from '../formats/importer.js';
import type { FileRecord, IngestWriter } from '../store/store.js';
import { lineHash } from '../core/line-hash.js';
import { heldBytes } from './held-bytes.js';
import { readLines } from './line-reader.js';

const COMPARE_CHUNK = 1024 * 1024;

export interface CopiedSource {
  /** The other root's file holding the same ledger. */
  other: FileRecord;
  /** Bytes both hold (and that agree). */
  sharedBytes: number;
  /** The new file holds more than the other: it is the one to read, the other the duplicate. */
  newIsAhead: boolean;
}

function sizeOf(path: string): number | null {
  const held = heldBytes(path); // database rows being read (sqlite-rows.ts): compared line by line
  if (held) return held.length;
  try {
    const s = statSync(path);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}

/** Whether two files hold the same first `length` bytes (read in 1 MiB chunks). */
function samePrefix(a: string, b: string, length: number): boolean {
  const fa = openSync(a, 'r');
  try {
    const fb = openSync(b, 'r');
    try {
      const ba = Buffer.allocUnsafe(Math.min(COMPARE_CHUNK, length));
      const bb = Buffer.allocUnsafe(ba.length);
      for (let at = 0; at < length; at += ba.length) {
        const n = Math.min(ba.length, length - at);
        if (readSync(fa, ba, 0, n, at) !== n || readSync(fb, bb, 0, n, at) !== n) return false;
        if (!ba.subarray(0, n).equals(bb.subarray(0, n))) return false;
      }
      return true;
    } finally {
      closeSync(fb);
    }
  } finally {
    closeSync(fa);
  }
}

/** The other file's source is gone: compare the new file's complete lines with its stored ones. */
async function sameAsStored(writer: IngestWriter, other: FileRecord, path: string): Promise<number> {
  const lines = readLines(path);
  let shared = 0;
  try {
    for (let from = 1; ; ) {
      const page = await writer.storedLines(other.id, from, 64);
      if (page.length === 0) return shared;
      for (const stored of page) {
        if (stored.lineNumber >= other.nextLine) return shared;
        const now = lines.next();
        if (now.done || !now.value.complete) return shared;
        if (now.value.bytes.length !== stored.length || !lineHash(now.value.bytes).equals(stored.hash)) return 0;
        shared = stored.offset + stored.length + 1;
      }
      from = page[page.length - 1]!.lineNumber + 1;
    }
  } finally {
    lines.return(undefined);
  }
}

/**
 * The live file of another root that `source` (new to the store) copies, if any. Empty files
 * copy nothing: there is no content to recognise them by.
 */
export async function findCopiedSource(
  writer: IngestWriter,
  source: SourceFile,
  rootId: number,
  format: Format,
): Promise<CopiedSource | null> {
  const size = sizeOf(source.path);
  if (!size) return null;
  const candidates = await writer.sameLedgerElsewhere({
    rootId,
    format,
    ledger: source.ledger,
    sessionId: source.sessionId ?? null,
    chainGroup: source.chainGroup ?? null,
  });
  for (const other of candidates) {
    const otherSize = sizeOf(other.path);
    if (otherSize !== null) {
      const shared = Math.min(size, otherSize);
      if (shared > 0 && samePrefix(source.path, other.path, shared)) return { other, sharedBytes: shared, newIsAhead: size > otherSize };
    } else {
      const shared = await sameAsStored(writer, other, source.path);
      if (shared > 0) return { other, sharedBytes: shared, newIsAhead: size > other.offset };
    }
  }
  return null;
}

/** The finding on the file kept as evidence only. */
export function duplicateSourceNote(copy: { relPath: string; sessionId: string | null }, of: { root: string; relPath: string }, sharedBytes: number): Defect {
  const session = copy.sessionId ? `session ${copy.sessionId}'s ` : '';
  return {
    severity: 'warning',
    kind: 'duplicate_source',
    file: copy.relPath,
    line: null,
    message: `copy of ${session}ledger in ${of.root}/${of.relPath} (the first ${sharedBytes} bytes agree): kept as evidence only, so its turns, events and tokens are counted once`,
    sessionId: copy.sessionId,
  };
}
