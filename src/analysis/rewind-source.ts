// What a rewind reads from the store: a session's events grouped by the file they came from (in
// line order, which is what truncation follows), and the live files as last ingested.

import type { StoredEvent } from '../core/events.js';
import type { RewindFile } from '../formats/profile.js';
import type { LedgerInfo, Store } from '../store/store.js';

const PAGE = 5000;

/** Every event of the session (and of its descendants when asked), grouped by file, in line order. */
export async function eventsByFile(store: Store, sessionId: string, descendants: boolean): Promise<Map<number, StoredEvent[]>> {
  const byFile = new Map<number, StoredEvent[]>();
  for (let offset = 0; ; offset += PAGE) {
    const { total, events } = await store.sessionTimeline(sessionId, { offset, limit: PAGE, descendants });
    for (const e of events) {
      const list = byFile.get(e.fileId);
      if (list) list.push(e);
      else byFile.set(e.fileId, [e]);
    }
    if (events.length === 0 || offset + events.length >= total) break;
  }
  for (const list of byFile.values()) list.sort((a, b) => a.lineNumber - b.lineNumber || a.part - b.part);
  return byFile;
}

export function liveFiles(ledgers: LedgerInfo[]): RewindFile[] {
  return ledgers.flatMap((l) =>
    l.files
      .filter((f) => !f.superseded)
      .map((f) => ({
        fileId: f.fileId,
        ledger: l.ledger,
        relPath: f.relPath,
        path: f.path,
        lines: f.lines,
        generation: f.generation,
        size: f.size,
        mtimeMs: f.mtimeMs,
        offset: f.offset,
      })),
  );
}

/** Byte offset where `line` starts (the file's ingested end for a line past the last). */
export async function lineOffset(store: Store, file: RewindFile, line: number): Promise<number> {
  if (line > file.lines) return file.offset;
  const [row] = await store.evidenceLines([{ fileId: file.fileId, lineNumber: line }]);
  if (!row) throw new Error(`no evidence for ${file.relPath} line ${line}`);
  return row.offset;
}
