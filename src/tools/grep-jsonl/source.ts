// Where grep reads a ledger file from: the source itself ("live") while it looks exactly like what
// was ingested (same size and mtime — the test ingest uses to skip a file — and no held-back last
// line), else the stored evidence. Reading the plain file skips decompression, most of a scan's
// cost; the evidence is what makes grep answer after the source is deleted or rewritten. Each
// file says which it came from, because size and mtime can lie (an in-place edit that keeps the
// size, then a touch): the caller checks the live lines it returns against the evidence
// (index.ts) and falls back to the evidence when they differ.
//
// A live file is not read here: it is opened and checked, then handed over as ranges of about
// RANGE bytes that the search workers read and search themselves (file-range.ts), so neither the
// bytes nor their lines pass through this thread. Evidence is handed over compressed when the store
// can (the workers inflate it: Node's async brotli costs this thread about as much as the
// inflation itself); small files' is read a few files ahead, a big file's at its turn.
// Reading pauses while the search workers are far behind (`backlog`), so memory stays bounded; a
// paused evidence scan is restarted after the last block handed over (the store's scan has no
// resume point; re-reading the prefix costs decompression only, and only when matching is slower).
// Evidence blocks that cannot hold the pattern's required bytes (their gram filter says so) are
// left out by the store before they are inflated: the visitor hears only that the file was read.
// A file whose evidence fails to read here (a store that inflates on this thread: EVIDENCE_DAMAGED)
// is handed to the visitor's `unreadable` after the blocks before the failure: it says whether
// the scan goes on with the next file.

import { closeSync, fstatSync, openSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EvidenceBlockView, EvidenceSkip, PackedEvidenceBlockView, Store } from '../../store/store.js';
import type { LedgerFile } from '../ledger-address.js';

export type ReadFrom = 'live' | 'evidence';
/** An evidence block: inflated, or as stored when the store can hand it so (the search workers inflate it). */
export type EvidenceBlock = EvidenceBlockView | PackedEvidenceBlockView;

/** A part of a live file: the lines that start in [from, to) of the open `fd`; `last`: the file's last part. */
export interface LiveRange {
  file: LedgerFile;
  fd: number;
  from: number;
  to: number;
  last: boolean;
}

/** Return false to stop the whole scan. */
export interface Visitor {
  /** A block of a file's evidence, in order. */
  evidence(block: EvidenceBlock): boolean | void;
  /** A range of a live file, in order; the file's descriptor is the visitor's from its first range on: it closes it (once the last range is done with). */
  live(range: LiveRange): boolean | void;
  /** A block of the file's evidence was left out (it cannot hold `ScanControl.holding`): the file was read from the evidence all the same. */
  skipped(file: LedgerFile): void;
  /** The file's evidence failed to read (`err`) after the blocks already visited: true to go on with the next file, false to stop the scan with `err`. */
  unreadable(file: LedgerFile, err: unknown): boolean;
}

export interface ScanControl {
  /** A promise to await before reading on (the consumer is behind), or null. */
  backlog(): Promise<void> | null;
  /** Files (by id) to read from the evidence even when the source looks unchanged. */
  evidenceOnly: ReadonlySet<number>;
  /** Bytes every wanted line contains, or null: evidence blocks whose filter says they cannot hold them are not inflated. */
  holding: Uint8Array | null;
}

/** Bytes of a live file per range: a file up to this size is one range (most session logs), a bigger one is split so both workers search it. */
export const RANGE = 4 * 1024 * 1024;
/** Files whose evidence fits one block or so: decompressed whole, a few files ahead. */
const SMALL_FILE = 4 * 1024 * 1024;

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

/** What the store may leave out of a file's scan. */
function skipFor(f: LedgerFile, visit: Visitor, control: ScanControl): EvidenceSkip | undefined {
  return control.holding ? { holding: control.holding, left: () => visit.skipped(f) } : undefined;
}

/** A file's evidence in order, left compressed when the store offers it. */
function scanStored(store: Store, fileId: number, visit: (block: EvidenceBlock) => boolean | void, skip: EvidenceSkip | undefined): Promise<void> {
  return store.scanPackedEvidence ? store.scanPackedEvidence([fileId], visit, skip) : store.scanEvidence([fileId], visit, skip);
}

/** Hand a live file over, range by range, pausing while the workers are behind. */
async function visitLive(fd: number, f: LedgerFile, visit: Visitor, control: ScanControl): Promise<boolean> {
  for (let from = 0; from < f.size; from += RANGE) {
    const to = Math.min(from + RANGE, f.size);
    if (visit.live({ file: f, fd, from, to, last: to === f.size }) === false) return false;
    if (to < f.size) await (control.backlog() ?? Promise.resolve());
  }
  return true;
}

/**
 * One big file's evidence, in order, pausing (and resuming after the last block handed over) when
 * the consumer is behind. Its blocks go to the search workers compressed, as small files' do:
 * inflating them on the thread pool instead left this thread busy with Node's async brotli
 * (~100 ms of a 59 MB ledger's `error` search, measured 2026-11-27) while the workers idled.
 */
async function scanBigEvidence(store: Store, f: LedgerFile, visit: Visitor, control: ScanControl): Promise<boolean> {
  try {
    return await scanBigEvidenceOnce(store, f, visit, control);
  } catch (err) {
    if (!visit.unreadable(f, err)) throw err;
    return true;
  }
}

async function scanBigEvidenceOnce(store: Store, f: LedgerFile, visit: Visitor, control: ScanControl): Promise<boolean> {
  let handedUpTo = 0;
  for (;;) {
    let stopped = false;
    let pause: Promise<void> | null = null;
    await scanStored(
      store,
      f.fileId,
      (block) => {
        const last = block.lines[block.lines.length - 1]?.lineNumber;
        if (last === undefined || last <= handedUpTo) return; // empty, or handed over before a pause
        if (visit.evidence(block) === false) {
          stopped = true;
          return false;
        }
        handedUpTo = last;
        pause = control.backlog();
        if (pause) return false;
      },
      skipFor(f, visit, control),
    );
    if (stopped) return false;
    if (!pause) return true;
    await pause;
  }
}

/** Files looked at ahead of the one being visited, so their evidence's decompression overlaps (on the thread pool) with the search. */
const AHEAD_FILES = 4;

/** How a file will be read, decided ahead of its turn: live (open), small evidence (being decompressed), or big evidence (streamed at its turn). */
type Plan =
  | { kind: 'live'; fd: number }
  /** `read`: the blocks read and what stopped the read early (null: nothing did). */
  | { kind: 'small'; read: Promise<{ blocks: EvidenceBlock[]; failure: unknown }>; skipped: () => boolean }
  | { kind: 'big' };

function planFile(store: Store, f: LedgerFile, control: ScanControl): Plan {
  const fd = control.evidenceOnly.has(f.fileId) ? null : openUnchanged(f);
  if (fd !== null) return { kind: 'live', fd };
  if (f.size > SMALL_FILE) return { kind: 'big' };
  const blocks: EvidenceBlock[] = [];
  // Read ahead of its turn: the visitor hears of a block left out when the file's turn comes.
  let skipped = false;
  const skip = control.holding ? { holding: control.holding, left: () => void (skipped = true) } : undefined;
  // Never rejects: a scan that stops early never awaits it, and the blocks before a failure are searched.
  const read = scanStored(store, f.fileId, (block) => void blocks.push(block), skip).then(
    () => ({ blocks, failure: null }),
    (failure: unknown) => ({ blocks, failure }),
  );
  return { kind: 'small', read, skipped: () => skipped };
}

/**
 * Visit every file in order, from the unchanged source or from the evidence. Files are looked
 * at AHEAD_FILES ahead: one by one, each small file's decompression waited for the search of the
 * one before (one core busy of two). Descriptors opened ahead and never handed over are closed.
 */
export async function scanLedgerFiles(store: Store, files: LedgerFile[], visit: Visitor, control: ScanControl): Promise<void> {
  const ahead = new Map<number, Plan>();
  let next = 0;
  try {
    for (let i = 0; i < files.length; i++) {
      for (; next < files.length && next <= i + AHEAD_FILES; next++) ahead.set(next, planFile(store, files[next]!, control));
      const f = files[i]!;
      const plan = ahead.get(i)!;
      ahead.delete(i);
      if (plan.kind === 'live') {
        if (!(await visitLive(plan.fd, f, visit, control))) return;
      } else if (plan.kind === 'small') {
        const { blocks, failure } = await plan.read;
        if (plan.skipped()) visit.skipped(f);
        for (const block of blocks) if (visit.evidence(block) === false) return;
        if (failure !== null && !visit.unreadable(f, failure)) throw failure;
      } else if (!(await scanBigEvidence(store, f, visit, control))) return;
      await (control.backlog() ?? nextTurn()); // let the server answer others between files
    }
  } finally {
    for (const plan of ahead.values()) if (plan.kind === 'live') closeSync(plan.fd);
  }
}
