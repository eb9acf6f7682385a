// Carry out a rewind plan: check that every file is still what the store ingested and not being
// written, copy each to `<file>.bak-pre-rewind-<YYYYMMDDTHHMMSSZ>` (exact bytes), truncate it at
// the cut line's byte offset, and append a REWIND entry to the session's rewind ledger
// (src/formats/rewind-ledger.ts). The store learns of the cut from the files alone at the next
// ingest — the truncation as a new generation, the entry as an info `rewind` finding — and so does
// the sync remote after a push, by the same path. The ingest lock is held throughout, so no ingest
// reads a half-rewound session.

import { appendFileSync, constants, copyFileSync, closeSync, mkdirSync, openSync, readSync, statSync, truncateSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { SessionLive, SourceChanged } from '../../formats/shared/rewind-errors.js';
import { REWIND_TYPE, rewindLedgerPath, type RewindEntry } from '../../formats/rewind-ledger.js';
import type { Store } from '../../store/store.js';
import type { PlannedFile, RewindPlan } from './plan.js';

/** A file written this recently is probably still being written by a running agent. */
export const LIVE_WINDOW_MS = 60_000;

export interface ApplyOutcome {
  backups: { file: string; path: string; backup: string; bytes: number }[];
  /** The rewind ledger the REWIND entry was appended to. */
  rewindLedger: string;
}

function rewindEntry(plan: RewindPlan, backups: ApplyOutcome['backups'], now: number): RewindEntry {
  const b = plan.body;
  return {
    type: REWIND_TYPE,
    timestamp: new Date(now).toISOString(),
    session_id: b.session_id,
    by: 'hindsight rewind_session',
    target: { kind: b.target.kind, requested: b.target.requested, file: b.target.file, line_number: b.target.line_number },
    files: plan.changes.map((c, i) => ({
      file: c.file.relPath,
      lines_before: c.file.lines,
      lines_after: c.cutLine - 1,
      bytes_before: c.file.size,
      bytes_after: c.bytesAfter,
      backup: backups[i]!.backup.slice(dirname(c.file.path).length + 1),
    })),
    removed: b.removed,
    turn_count_before: b.turn_count_before,
    turn_count_after: b.turn_count_after,
  };
}

/** `20260210T220314Z`: sortable, and matched by the importers' `.bak-pre-rewind-<ts>` rule. */
export function backupStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

function readAt(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, offset);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

async function checkUnchanged(store: Store, c: PlannedFile, root: string): Promise<Stats> {
  let stat: Stats;
  try {
    stat = statSync(c.file.path);
  } catch {
    throw SourceChanged(c.file.relPath, 'it is no longer there', root);
  }
  if (stat.size !== c.file.size) throw SourceChanged(c.file.relPath, `size ${stat.size} bytes, ${c.file.size} at ingest`, root);
  if (stat.mtimeMs !== c.file.mtimeMs) {
    throw SourceChanged(c.file.relPath, `modified ${new Date(stat.mtimeMs).toISOString()}, after the ingest`, root);
  }
  // Same size and mtime, and the cut line still holds the stored bytes: the offset is right.
  const [stored] = await store.evidenceLines([{ fileId: c.file.fileId, lineNumber: c.cutLine }]);
  if (!stored || !readAt(c.file.path, c.bytesAfter, stored.raw.length).equals(stored.raw)) {
    throw SourceChanged(c.file.relPath, `line ${c.cutLine} no longer holds the stored bytes`, root);
  }
  return stat;
}

function writeBackup(path: string, stamp: string): string {
  for (let i = 1; ; i++) {
    const backup = `${path}.bak-pre-rewind-${stamp}${i === 1 ? '' : `-${i}`}`;
    try {
      copyFileSync(path, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || i >= 99) throw err;
    }
  }
}

export async function applyRewind(store: Store, plan: RewindPlan, options: { force: boolean; now: number }): Promise<ApplyOutcome> {
  const { session, changes } = plan;
  const root = session.root ?? '<root>';
  const writer = await store.beginIngest();
  try {
    const stats: Stats[] = [];
    for (const c of changes) stats.push(await checkUnchanged(store, c, root));
    const live = changes.filter((_, i) => options.now - stats[i]!.mtimeMs < LIVE_WINDOW_MS).map((c) => c.file.relPath);
    if (live.length > 0 && !options.force) throw SessionLive(live);

    const stamp = backupStamp(options.now);
    const backups: ApplyOutcome['backups'] = [];
    for (const [i, c] of changes.entries()) {
      const backup = writeBackup(c.file.path, stamp);
      const copied = statSync(backup).size;
      if (copied !== stats[i]!.size) throw new Error(`backup ${backup} has ${copied} bytes, expected ${stats[i]!.size}; nothing was truncated`);
      backups.push({ file: c.file.relPath, path: c.file.path, backup, bytes: copied });
    }
    for (const c of changes) truncateSync(c.file.path, c.bytesAfter);

    const folder = plan.rewind.sessionFolder(session, changes[0]!.file.path);
    mkdirSync(folder, { recursive: true });
    const rewindLedger = rewindLedgerPath(folder);
    appendFileSync(rewindLedger, `${JSON.stringify(rewindEntry(plan, backups, options.now))}\n`);
    return { backups, rewindLedger };
  } finally {
    await writer.release();
  }
}
