// Reading a root's files for the usage pass on both cores. This thread and one worker
// (usage-pass-worker.ts) take units from one list — a file, or a chain group's files together and
// in order — each claiming the next with an atomic counter, the larger units first. So neither
// core waits while the other has work left, whatever each one's speed: the worker starting late,
// other jobs on the machine, files costing more than their bytes say. (A fixed split by size left
// one core idle for a fifth of the pass, then the main thread deserialised the worker's whole
// share at the end.) The worker posts each unit's usage as soon as it is read, and this thread
// takes those in between its own units, so little is left once the last unit is read. (A compact
// form for the posted usages — strings in a table, events as JSON rows — took less of this
// thread's time but more in all, cold: measured and not kept.)
//
// With session groups (Importer.usageGroups) a unit is a group, and the thread that reads it also
// makes its sessions and groups their calls (usage-pass-unit.ts): a worker then posts a few rows per
// session instead of every usage event.
//
// Exactness: a unit's usage is the same whichever thread reads it, and the results are put back
// in discovery order, so the sessions are made exactly as from one thread. Without a second core,
// or without the compiled worker beside this module (tests run the TypeScript sources), everything
// is read here. A worker that fails costs time, not the answer: the units it did not return are
// read here.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Importer, SourceFile } from '../formats/importer.js';
import { readUsageUnit, type FileUsage } from './usage-pass-file.js';
import { sizeOf } from './size-of.js';
import { unitSummary, type UnitSummary } from './usage-pass-unit.js';
import type { FromUsageWorker, ToUsageWorker } from './usage-pass-worker.js';

let workerUrlOverride: URL | null | undefined;

/** Run the worker from `url` (tests bundle it from the sources); null: never use a worker; undefined: the compiled twin. */
export function useUsageWorkerUrl(url: URL | null | undefined): void {
  workerUrlOverride = url;
}

function workerUrl(): URL | null {
  if (workerUrlOverride !== undefined) return workerUrlOverride;
  const beside = new URL('./usage-pass-worker.js', import.meta.url);
  return existsSync(fileURLToPath(beside)) ? beside : null;
}

export interface UsageReader {
  /** Have the worker load `format` now, while this thread still looks for files. */
  prepare(format: string): void;
  /** The usage of `files` (one root's, in discovery order), one result per file in the same order. */
  read(importer: Importer, files: readonly SourceFile[]): Promise<FileUsage[]>;
  /**
   * Each session group of `files` (`groups`: one key per file, Importer.usageGroups) read and
   * summarised, calls grouped with the long-context `threshold`: one summary per group, in the
   * order of each group's first file.
   */
  summarize(importer: Importer, files: readonly SourceFile[], groups: readonly string[], threshold: number): Promise<UnitSummary[]>;
  /** Units read so far by this thread and by the worker. */
  readonly shares: { here: number; worker: number };
  /**
   * Stop the worker (the pass leaves nothing running). Not waited for: the thread ends on its own
   * while this one answers (waiting cost up to 0.1 s on a loaded machine).
   */
  close(): void;
}

/**
 * The reading units of `files` (index lists: a session group's files — `groups`, one key per file —
 * or else a chain group's files together in discovery order, any other file alone), larger first —
 * the last units claimed are then small, and both threads end at about the same time.
 *
 * @example readingUnits(files) // [[4], [0, 1, 2], [3]]
 */
export function readingUnits(files: readonly SourceFile[], groups?: readonly string[]): number[][] {
  const units = new Map<string, { indexes: number[]; bytes: number }>();
  files.forEach((file, i) => {
    const key = groups ? `session\0${groups[i]}` : file.chainGroup ? `group\0${file.chainGroup}` : `file\0${i}`;
    const unit = units.get(key) ?? { indexes: [], bytes: 0 };
    unit.indexes.push(i);
    unit.bytes += sizeOf(file.path);
    units.set(key, unit);
  });
  // A stable sort: equal sizes keep discovery order.
  return [...units.values()].sort((a, b) => b.bytes - a.bytes).map((u) => u.indexes);
}

/** One turn of the event loop: the worker's posted units are taken in. */
const takeMessages = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What a thread makes of one unit: its files' usage, or (given a threshold) the group's summary. */
type UnitResult = FileUsage[] | UnitSummary;

/** A read in progress: what to do with a unit the worker returns, and how to wake the reader. */
interface OpenRead {
  place(unit: number, result: UnitResult): void;
  wake(): void;
}

/**
 * A reader for the usage pass; the worker (when there is one) starts now, so it is loaded by the
 * time the caller has found the files.
 *
 * @example const reader = usageReader(); try { await reader.read(importer, files) } finally { reader.close() }
 */
export function usageReader(): UsageReader {
  const url = availableParallelism() > 1 ? workerUrl() : null;
  let worker: Worker | null = null;
  const open = new Map<number, OpenRead>();
  let reads = 0;
  const shares = { here: 0, worker: 0 };

  /** The worker failed or exited: it gets no more work, and every open read stops waiting for it. */
  const lose = () => {
    if (!worker) return;
    void worker.terminate();
    worker = null;
    for (const r of open.values()) r.wake();
  };
  if (url) {
    worker = new Worker(url);
    worker.on('message', (msg: FromUsageWorker) => {
      if ('failed' in msg) return lose();
      const read = open.get(msg.read);
      if (!read) return;
      shares.worker++;
      read.place(msg.unit, msg.result);
    });
    // A worker that cannot start is noticed here, and its share is read on this thread.
    worker.on('error', lose);
    worker.on('exit', lose);
  }

  /**
   * Every unit read (summarised when `threshold` is given) by this thread and the worker, each
   * claiming the next; results by unit.
   */
  async function claimUnits(importer: Importer, files: readonly SourceFile[], units: number[][], threshold: number | undefined): Promise<UnitResult[]> {
    const out: UnitResult[] = new Array(units.length);
    const done = new Array<boolean>(units.length).fill(false);
    let left = units.length;
    let wake = () => {};
    const place = (k: number, result: UnitResult) => {
      if (done[k]) return;
      done[k] = true;
      out[k] = result;
      if (--left === 0) wake();
    };
    const here = (k: number) => {
      place(k, threshold === undefined ? readUsageUnit(importer, files, units[k]!) : unitSummary(importer, files, units[k]!, threshold));
      shares.here++;
    };
    if (worker && units.length > 1) {
      const id = ++reads;
      const claims = new Int32Array(new SharedArrayBuffer(4));
      const finished = new Promise<void>((resolve) => (wake = resolve));
      open.set(id, { place, wake });
      worker.postMessage({ read: id, format: importer.format, files: [...files], units, claims: claims.buffer, threshold } satisfies ToUsageWorker);
      try {
        for (let k = Atomics.add(claims, 0, 1); k < units.length; k = Atomics.add(claims, 0, 1)) {
          here(k);
          await takeMessages();
        }
        // The units the worker claimed last (or none, when it failed meanwhile).
        if (left > 0 && worker) await finished;
      } finally {
        open.delete(id);
      }
    }
    // Everything, without a worker; after a failed one, what it never returned.
    for (let k = 0; k < units.length; k++) if (!done[k]) here(k);
    return out;
  }

  return {
    shares,
    prepare(format) {
      worker?.postMessage({ load: format } satisfies ToUsageWorker);
    },
    async read(importer, files) {
      const units = readingUnits(files);
      const results = (await claimUnits(importer, files, units, undefined)) as FileUsage[][];
      const out: FileUsage[] = new Array(files.length);
      units.forEach((unit, k) => unit.forEach((i, j) => (out[i] = results[k]![j]!)));
      return out;
    },
    async summarize(importer, files, groups, threshold) {
      const units = readingUnits(files, groups);
      const results = (await claimUnits(importer, files, units, threshold)) as UnitSummary[];
      // Back in discovery order: the same answer however the units fell between the threads.
      return units.map((unit, k) => ({ first: unit[0]!, summary: results[k]! })).sort((a, b) => a.first - b.first).map((u) => u.summary);
    },
    close() {
      const w = worker;
      worker = null;
      void w?.terminate();
    },
  };
}
