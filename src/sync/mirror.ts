// Mirror a root's evidence from one store into a folder, byte for byte, then ingest that folder into
// the other store: the ingest pipeline does the appends, rewrite detection, idempotence and crash
// safety. Only what the target lacks is written: the new bytes of a grown file, or the next generation.

import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, statSync, utimesSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Format } from '../core/model.js';
import { importerFor, loadImporters } from '../formats/registry.js';
import { ingestPaths, type IngestProgress } from '../ingest/ingest.js';
import type { Store } from '../store/store.js';
import { byPath, type InvFile } from './inventory.js';

export interface MirrorStats {
  /** Files written into the folder (a file written in two passes counts twice). */
  files: number;
  /** Lines and bytes the target read (its ingest summary). */
  lines: number;
  events: number;
  bytes: number;
  passes: number;
  /** Paths the target holds more of than the source (never written over; reported). */
  diverged: string[];
}

interface Action {
  file: InvFile;
  /** Byte offset to write from (0: the whole generation). */
  from: number;
}

interface TargetFile {
  generation: number;
  lines: number;
  size: number;
  offset: number;
}

async function targetFiles(target: Store, dir: string): Promise<Map<string, TargetFile[]>> {
  const m = new Map<string, TargetFile[]>();
  for (const ledger of await target.rootLedgers(dir)) {
    for (const f of ledger.files) {
      // An empty retired generation holds no evidence (an ingest interrupted between creating a
      // document's record and filling it leaves one): it must not shift the generations' pairing.
      if (f.superseded && f.lines === 0) continue;
      const list = m.get(f.relPath) ?? [];
      list.push({ generation: f.generation, lines: f.lines, size: f.size, offset: f.offset });
      m.set(f.relPath, list);
    }
  }
  for (const list of m.values()) list.sort((a, b) => a.generation - b.generation);
  return m;
}

/**
 * What to write next: per path, the k-th source generation matches the target's k-th. A target
 * behind on its live generation gets that generation's missing bytes; a target level with it gets
 * the next generation whole (the ingest then sees a rewrite and keeps the old lines).
 */
function plan(source: Map<string, InvFile[]>, target: Map<string, TargetFile[]>, diverged: Set<string>): Action[] {
  const actions: Action[] = [];
  for (const [relPath, gens] of source) {
    const have = target.get(relPath) ?? [];
    const c = have.length;
    if (c === 0) {
      actions.push({ file: gens[0]!, from: 0 });
      continue;
    }
    const s = gens[c - 1];
    const d = have[c - 1]!;
    if (!s || s.lines < d.lines || s.offset < d.offset) {
      diverged.add(relPath);
      continue;
    }
    // size -1 marks a file whose ingest was interrupted: it always reads as changed.
    const behind = s.lines !== d.lines || s.offset !== d.offset || (s.size >= 0 && s.size !== d.size);
    if (behind) actions.push({ file: s, from: Math.max(0, d.offset) });
    else if (gens.length > c) actions.push({ file: gens[c]!, from: 0 });
  }
  return actions;
}

const NL = Buffer.from('\n');

/** Write a generation's bytes from `from` on (the part before it is already in the file). */
async function writeGeneration(source: Store, f: InvFile, path: string, from: number): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  // A missing or short file (the cache was cleared, a crash) is written whole: same bytes either way.
  const start = from > 0 && existsSync(path) && statSync(path).size >= from ? from : 0;
  const fd = openSync(path, start > 0 ? 'r+' : 'w');
  try {
    if (start > 0) ftruncateSync(fd, start);
    let pos = start;
    let off = 0;
    await source.scanEvidence([f.fileId], (block) => {
      const parts: Buffer[] = [];
      for (const l of block.lines) {
        const last = l.lineNumber === f.lines;
        // Every complete line ends with '\n'; the last one only if the source had it (size tells).
        const nl = l.status !== 'incomplete' && !(last && f.size >= 0 && off + l.length >= f.size);
        const end = off + l.length + (nl ? 1 : 0);
        if (end > start) {
          const bytes = block.data.subarray(l.start, l.start + l.length);
          const whole = nl ? Buffer.concat([bytes, NL]) : bytes;
          parts.push(off >= start ? whole : whole.subarray(start - off));
        }
        off = end;
      }
      if (parts.length) {
        const buf = Buffer.concat(parts);
        writeSync(fd, buf, 0, buf.length, pos);
        pos += buf.length;
      }
    });
  } finally {
    closeSync(fd);
  }
  const t = f.mtimeMs / 1000;
  utimesSync(path, t, t);
}

/**
 * Re-summarise the sessions an interrupted sync left dirty in `target`. A push or pull killed after
 * the evidence commit but before the summaries leaves every checkpoint level with the source, so the
 * next plan writes nothing and no ingest would run to finish them: this runs the summary step alone
 * (nothing to do, one query, when no session is dirty). Returns how many sessions it summarised.
 */
export async function completeSummaries(target: Store): Promise<number> {
  const writer = await target.beginIngest({ wait: true });
  try {
    await loadImporters();
    return await writer.summarizeDirty((format, input) => importerFor(format).summarize(input));
  } finally {
    await writer.release();
  }
}

export interface MirrorOptions {
  source: Store;
  files: InvFile[];
  target: Store;
  /** The folder (a real path) that mirrors the source root in the target. */
  dir: string;
  format: Format;
  /** The root's path on the machine it came from: Control Plane sessions keep it as their project. */
  projectRoot: string;
  onProgress?: (p: IngestProgress) => void;
}

/** Mirror `files` into `dir` and ingest it into the target, pass after pass until the target holds everything. */
export async function mirrorRoot(options: MirrorOptions): Promise<MirrorStats> {
  const stats: MirrorStats = { files: 0, lines: 0, events: 0, bytes: 0, passes: 0, diverged: [] };
  const source = byPath(options.files.filter((f) => !(f.superseded && f.lines === 0)));
  const diverged = new Set<string>();
  for (;;) {
    const actions = plan(source, await targetFiles(options.target, options.dir), diverged);
    if (actions.length === 0) break;
    for (const a of actions) await writeGeneration(options.source, a.file, join(options.dir, a.file.relPath), a.from);
    stats.files += actions.length;
    const summary = await ingestPaths(options.target, [options.dir], { format: options.format, projectRoot: options.projectRoot, wait: true, onProgress: options.onProgress });
    const failed = summary.roots.find((r) => r.error);
    if (failed?.error) throw new Error(`Ingesting the mirrored folder ${options.dir} failed: ${failed.error.message}`);
    stats.passes++;
    stats.lines += summary.lines;
    stats.events += summary.events;
    stats.bytes += summary.bytes;
    // Nothing read means nothing can change by trying again (a source whose checkpoint cannot be matched).
    if (summary.filesRead === 0) break;
  }
  stats.diverged = [...diverged].sort();
  return stats;
}
