// A session's or a root's files grouped by ledger, as both engines answer sessionLedgers and rootLedgers.

import type { LedgerInfo } from '../store.js';

/** A file row as the engines select it (`offset`: the byte offset after the last complete line). */
export interface LedgerFileRow {
  id: number;
  ledger: string;
  rel_path: string;
  path: string;
  lines: number;
  generation: number;
  superseded: number;
  size: number;
  mtime_ms: number;
  offset: number;
  session_id: string | null;
}

/** File rows (already in reading order) grouped by ledger. */
export function groupLedgers(rows: LedgerFileRow[]): LedgerInfo[] {
  const byLedger = new Map<string, LedgerInfo>();
  for (const r of rows) {
    const info = byLedger.get(r.ledger) ?? { ledger: r.ledger, files: [] };
    info.files.push({
      fileId: r.id,
      relPath: r.rel_path,
      path: r.path,
      lines: r.lines,
      generation: r.generation,
      superseded: r.superseded === 1,
      size: r.size,
      mtimeMs: r.mtime_ms,
      offset: r.offset,
      sessionId: r.session_id,
    });
    byLedger.set(r.ledger, info);
  }
  return [...byLedger.values()];
}
