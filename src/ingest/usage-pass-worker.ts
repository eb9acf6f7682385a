// A usage pass worker (usage-pass-split.ts): for each read it is sent, it claims the root's units
// one at a time from the counter it shares with the main thread, reads each (usage-pass-file.ts)
// with the format's importer (summarising it, when it is a session group) and posts the result at
// once, until no unit is left. A chain group's files are one unit, so the chain state stays with the thread reading it.

import { parentPort } from 'node:worker_threads';
import type { SourceFile } from '../formats/importer.js';
import { loadImporter } from '../formats/registry.js';
import { readUsageUnit, type FileUsage } from './usage-pass-file.js';
import { unitSummary, type UnitSummary } from './usage-pass-unit.js';

export type ToUsageWorker =
  /** Load a format's importer ahead of its first read. */
  | { load: string }
  /**
   * Read units of `files` (index lists) while claims[0], incremented atomically, names one; with a
   * threshold each unit is a session group, summarised (usage-pass-unit.ts).
   */
  | { read: number; format: string; files: SourceFile[]; units: number[][]; claims: SharedArrayBuffer; threshold: number | undefined };
export type FromUsageWorker = { read: number; unit: number; result: FileUsage[] | UnitSummary } | { read: number; failed: string };

const port = parentPort!;

async function read(msg: Extract<ToUsageWorker, { read: number }>): Promise<void> {
  try {
    const importer = await loadImporter(msg.format);
    const claims = new Int32Array(msg.claims);
    for (let k = Atomics.add(claims, 0, 1); k < msg.units.length; k = Atomics.add(claims, 0, 1)) {
      const unit = msg.units[k]!;
      const result = msg.threshold === undefined ? readUsageUnit(importer, msg.files, unit) : unitSummary(importer, msg.files, unit, msg.threshold);
      port.postMessage({ read: msg.read, unit: k, result } satisfies FromUsageWorker);
    }
  } catch (err) {
    port.postMessage({ read: msg.read, failed: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies FromUsageWorker);
  }
}

port.on('message', (msg: ToUsageWorker) => {
  if ('load' in msg) void loadImporter(msg.load).catch(() => {});
  else void read(msg);
});
