// Does a changed source still begin with the bytes stored at the last ingest? Called only when
// the size or mtime moved (an unchanged pair is skipped without reading), it re-reads the file's
// committed part and compares every line with its stored offset, length and hash: a same-size
// edit in the middle of a file is caught, not only a change to the first or last line. The cost
// is one sequential read of that part (the page cache usually holds it) and one SHA-256 per line.
//
// The same pass seeds the file's duplicate-line window with the stored lines, so an ingest that
// resumes finds duplicates of earlier lines exactly as a one-shot ingest of the whole file does.

import type { FileRecord, IngestWriter } from '../store/store.js';
import { countsForDuplicates, DuplicateWindow } from './duplicate-lines.js';
import { lineHash } from '../core/line-hash.js';
import { readLines, type RawLine } from './line-reader.js';

/** Blocks of stored line index fetched per query (a block holds up to 512 KiB of lines). */
const BLOCKS_PER_PAGE = 64;

export interface StoredPrefixCheck {
  /** Why the source no longer holds its stored lines, or null when every one is intact. */
  rewritten: string | null;
  /** The stored lines' hashes, for the resumed parse (meaningless when rewritten). */
  duplicates: DuplicateWindow;
}

/**
 * Compare the committed lines of `file` (those before `file.nextLine`) with the source now at
 * `file.path`, of `size` bytes.
 */
export async function checkStoredPrefix(writer: IngestWriter, file: FileRecord, size: number): Promise<StoredPrefixCheck> {
  const duplicates = new DuplicateWindow();
  if (size < file.offset) return { rewritten: `the file shrank from ${file.offset} to ${size} bytes`, duplicates };
  const source = readLines(file.path, { end: file.offset });
  try {
    let from = 1;
    for (;;) {
      const page = await writer.storedLines(file.id, from, BLOCKS_PER_PAGE);
      if (page.length === 0) break;
      for (const stored of page) {
        if (stored.lineNumber >= file.nextLine) return { rewritten: null, duplicates };
        const now: IteratorResult<RawLine> = source.next();
        if (
          now.done ||
          !now.value.complete ||
          now.value.offset !== stored.offset ||
          now.value.bytes.length !== stored.length ||
          !lineHash(now.value.bytes).equals(stored.hash)
        ) {
          return { rewritten: `line ${stored.lineNumber} no longer holds the bytes stored at the last ingest`, duplicates };
        }
        if (countsForDuplicates(stored.status)) duplicates.note(stored.hash, stored.lineNumber);
      }
      from = page[page.length - 1]!.lineNumber + 1;
    }
    return { rewritten: null, duplicates };
  } finally {
    source.return(undefined);
  }
}
