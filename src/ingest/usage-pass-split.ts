// Reading a root's files for the usage pass on both cores: this thread reads about half of the
// bytes while one worker (usage-pass-worker.ts) reads the other half. Files are shared out whole
// (a chain group's files together, in order), the larger first, each to the side with fewer bytes
// so far; the results come back in discovery order, so the sessions are made exactly as from one
// thread. Without a second core, or without the compiled worker beside this module (tests run the
// TypeScript sources), everything is read here. A worker that fails costs time, not the answer:
// its files are read here.

import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Importer, SourceFile } from '../formats/importer.js';
import { readFileUsage, type FileUsage } from './usage-pass-file.js';
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
  /** The usage of `files` (one root's, in discovery order), one result per file in the same order. */
  read(importer: Importer, files: readonly SourceFile[]): Promise<FileUsage[]>;
  /** Stop the worker (the pass leaves nothing running). */
  close(): Promise<void>;
}

/** Read `files` here, in order, each chain group continuing from its previous file. */
function readHere(importer: Importer, files: readonly SourceFile[]): FileUsage[] {
  const chains = new Map<string, unknown>();
  return files.map((file) => {
    const usage = readFileUsage(importer, file, file.chainGroup ? chains.get(file.chainGroup) : undefined);
    if (file.chainGroup) chains.set(file.chainGroup, usage.chainState);
    return usage;
  });
}

/** Indexes of `files` for each side: whole chain groups, larger first, to the lighter side. */
function shareOut(files: readonly SourceFile[]): [number[], number[]] {
  const units = new Map<string, { indexes: number[]; bytes: number }>();
  files.forEach((file, i) => {
    const key = file.chainGroup ? `group\0${file.chainGroup}` : `file\0${i}`;
    const unit = units.get(key) ?? { indexes: [], bytes: 0 };
    unit.indexes.push(i);
    unit.bytes += statSync(file.path, { throwIfNoEntry: false })?.size ?? 0;
    units.set(key, unit);
  });
  const sides: [number[], number[]] = [[], []];
  const bytes = [0, 0];
  for (const unit of [...units.values()].sort((a, b) => b.bytes - a.bytes)) {
    const side = bytes[0]! <= bytes[1]! ? 0 : 1;
    sides[side].push(...unit.indexes);
    bytes[side]! += unit.bytes;
  }
  // Each side reads in discovery order (chain groups continue in order).
  return [sides[0].sort((a, b) => a - b), sides[1].sort((a, b) => a - b)];
}

/** Ask the worker for the usage of `files`; rejects when it fails. */
function askWorker(worker: Worker, format: string, files: SourceFile[]): Promise<FileUsage[]> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    const onExit = (code: number) => reject(new Error(`the usage pass worker exited with code ${code}`));
    worker.once('message', (msg: FromUsageWorker) => {
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (msg.ok) resolve(msg.results);
      else reject(new Error(msg.message));
    });
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({ format, files } satisfies ToUsageWorker);
  });
}

/**
 * A reader for the pass over `formats`; the worker starts now and loads those formats while the
 * caller discovers files.
 *
 * @example const reader = usageReader([importer.format]); try { await reader.read(importer, files) } finally { await reader.close() }
 */
export function usageReader(formats: readonly string[]): UsageReader {
  const url = availableParallelism() > 1 ? workerUrl() : null;
  let worker: Worker | null = null;
  if (url) {
    worker = new Worker(url, { workerData: [...formats] });
    // A worker that cannot start is reported by the first read (which then reads here).
    worker.on('error', () => {});
  }
  return {
    async read(importer, files) {
      if (!worker || files.length < 2) return readHere(importer, files);
      const [mine, theirs] = shareOut(files);
      const theirFiles = theirs.map((i) => files[i]!);
      const asked = askWorker(worker, importer.format, theirFiles).catch(() => null);
      const here = readHere(importer, mine.map((i) => files[i]!));
      const there = (await asked) ?? readHere(importer, theirFiles);
      const out: FileUsage[] = new Array(files.length);
      mine.forEach((i, k) => (out[i] = here[k]!));
      theirs.forEach((i, k) => (out[i] = there[k]!));
      return out;
    },
    async close() {
      await worker?.terminate();
      worker = null;
    },
  };
}
