// The ingest pipeline: resolve roots, discover files, read only what is new, store evidence,
// events and defects in batches with their checkpoint, then re-summarise the touched sessions.

import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { FormatNotDetected, NotASessionFile, PathNotFound, toErrorShape } from '../core/errors.js';
import type { Defect, Format } from '../core/model.js';
import type { Importer, SourceFile } from '../formats/importer.js';
import { detectFormat, importerFor, loadImporter, loadImporters } from '../formats/registry.js';
import type { Store } from '../store/store.js';
import { planFile, prepareDocument, runPlan, type ChainLink, type FilePlan } from './ingest-file.js';
import { findRootsBelow } from './find-roots.js';
import { HeapBound } from './heap-bound.js';
import { ParseQueue } from './parse-queue.js';
import { sizeOf } from './size-of.js';
import { parseWorkerUrl, ParseWorkers, type ChunkQueue } from './parse-workers.js';

export interface IngestProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  currentFile: string;
}

export interface IngestOptions {
  format?: Format;
  /** Queue behind a running ingest instead of failing. */
  wait?: boolean;
  onProgress?: (p: IngestProgress) => void;
  /** The path the files' owner knows their root by, when ingesting a copy (see SourceFile.projectRoot). */
  projectRoot?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /**
   * Parse on this many worker threads while this thread writes (default: PARSE_WORKERS, or
   * HINDSIGHT_PARSE_WORKERS, when at least WORKER_MIN_BYTES are new and the compiled worker exists;
   * 0 parses on this thread).
   */
  parseWorkers?: number;
}

export interface IngestRootResult {
  path: string;
  format: Format | null;
  error?: { code: string; message: string };
}

export interface IngestSummary {
  roots: IngestRootResult[];
  /** True when no path was given and the default locations were used. */
  defaults: boolean;
  files: number;
  filesRead: number;
  filesUnchanged: number;
  sessions: number;
  sessionsTouched: number;
  events: number;
  lines: number;
  badLines: number;
  bytes: number;
  rewrites: number;
  defects: number;
  seconds: number;
}

/** Files planned ahead of the one being written. */
const LOOKAHEAD_FILES = 16;

/**
 * Parse workers by default: none. A worker parses while this thread writes, but on the 2-core
 * machines we measure on (shared with other work) it was 0–35% slower than one thread: the
 * hand-over costs more than the overlap gains while ingest spends 5–21× a bare parse's CPU
 * (docs/benchmarks.md, "Ingest against bare parsing"). HINDSIGHT_PARSE_WORKERS=1 (or 2) turns it
 * on for machines with free cores; the stores are identical either way (parse-workers.test.ts).
 */
export const PARSE_WORKERS = 0;
/** New bytes below which parsing stays on this thread: a worker costs ~50–100 ms to start. */
export const WORKER_MIN_BYTES = 8 * 1024 * 1024;

/** Where the chunks come from: worker threads for a large ingest, this thread otherwise. */
function chunkQueue(bytesTotal: number, options: IngestOptions): ChunkQueue {
  const url = parseWorkerUrl();
  const fromEnv = Number.parseInt((options.env ?? process.env).HINDSIGHT_PARSE_WORKERS ?? '', 10);
  const preferred = Number.isInteger(fromEnv) && fromEnv >= 0 ? Math.min(fromEnv, 4) : PARSE_WORKERS;
  const count = options.parseWorkers ?? (bytesTotal >= WORKER_MIN_BYTES ? preferred : 0);
  return url && count > 0 ? new ParseWorkers(count, url) : new ParseQueue();
}

interface PlannedRoot {
  path: string;
  format: Format;
  importer: Importer;
  files: SourceFile[];
  /** Findings that belong to no file (unreadable folders, symlink loops). */
  rootNotes?: Defect[];
}

async function resolveRoots(paths: string[], options: IngestOptions): Promise<{ planned: PlannedRoot[]; results: IngestRootResult[]; defaults: boolean }> {
  const results: IngestRootResult[] = [];
  const planned: PlannedRoot[] = [];
  let targets: { path: string; format?: Format }[] = paths.map((p) => ({ path: p, format: options.format }));
  const defaults = paths.length === 0;
  if (defaults) {
    const env = options.env ?? process.env;
    const home = options.home ?? homedir();
    targets = [];
    for (const importer of await loadImporters()) {
      if (options.format && importer.format !== options.format) continue;
      for (const root of await importer.defaultRoots(env, home)) targets.push({ path: root, format: importer.format });
    }
  }
  for (const t of targets) {
    try {
      let real: string;
      try {
        real = realpathSync(resolve(t.path));
      } catch {
        throw PathNotFound(resolve(t.path));
      }
      if (statSync(real).isFile()) {
        const one = await resolveSessionFile(real, t.format);
        planned.push(one);
        results.push({ path: real, format: one.format });
        continue;
      }
      const format = t.format ?? (await detectFormat(real));
      if (!format) {
        // Not a root itself: search it for the roots it holds, each ingested as its own.
        const below = await findRootsBelow(real);
        if (below.length === 0) throw FormatNotDetected(real, await knownLayouts());
        targets.push(...below);
        continue;
      }
      const importer = await loadImporter(format);
      const rootNotes: Defect[] = [];
      const files = await importer.discover(real, rootNotes);
      if (options.projectRoot !== undefined) for (const f of files) f.projectRoot = options.projectRoot;
      planned.push({ path: real, format, importer, files, rootNotes });
      results.push({ path: real, format });
    } catch (err) {
      results.push({ path: resolve(t.path), format: t.format ?? null, error: toErrorShape(err) });
    }
  }
  return { planned, results, defaults };
}

/** What a root of each format looks like, in detection order: what FormatNotDetected says was expected. */
async function knownLayouts(): Promise<{ format: string; layout: string }[]> {
  return (await loadImporters()).map((i) => ({ format: i.format, layout: i.layout }));
}

/**
 * A single session file (a Claude Code transcript, an Amplifier session's file): its folder is
 * the root, and only that session's files (with its sub-agents' files) are ingested.
 */
async function resolveSessionFile(file: string, format: Format | undefined): Promise<PlannedRoot> {
  const dir = dirname(file);
  // The file's own content first (a transcript outside projects/), then its folder's layout.
  const found = format ?? (await detectFormat(file)) ?? (await detectFormat(dir));
  if (!found) throw FormatNotDetected(file, await knownLayouts());
  const importer = await loadImporter(found);
  const all = await importer.discover(dir);
  const target = all.find((f) => f.path === file);
  if (!target) throw NotASessionFile(file, found);
  // A transcript whose lines name no session (garbage given --format): its lines are kept and
  // counted as bad lines, and no session is made up from the file name.
  if (!target.sessionId && target.ledger === 'transcript') return { path: dir, format: found, importer, files: [target] };
  if (!target.sessionId) throw NotASessionFile(file, found);
  const session = target.sessionId;
  const files = all.filter((f) => f.sessionId === session || f.sessionId?.startsWith(`${session}:`));
  return { path: dir, format: found, importer, files };
}

/**
 * Ingest the given paths (or the default locations) into `store`.
 *
 * @example const summary = await ingestPaths(store, ['~/.claude'], {});
 */
export async function ingestPaths(store: Store, paths: string[], options: IngestOptions = {}): Promise<IngestSummary> {
  const started = process.hrtime.bigint();
  // Parsing and summarising are synchronous loops: every importer is loaded before them.
  await loadImporters();
  const { planned, results, defaults } = await resolveRoots(paths, options);
  const writer = await store.beginIngest({ wait: options.wait });
  const heap = new HeapBound();
  const summary: IngestSummary = {
    roots: results,
    defaults,
    files: 0,
    filesRead: 0,
    filesUnchanged: 0,
    sessions: 0,
    sessionsTouched: 0,
    events: 0,
    lines: 0,
    badLines: 0,
    bytes: 0,
    rewrites: 0,
    defects: 0,
    seconds: 0,
  };
  try {
    // A stat pass first, so progress knows the total of new bytes.
    const work: { root: PlannedRoot; file: SourceFile; rootId: number }[] = [];
    let bytesTotal = 0;
    for (const root of planned) {
      const rootId = await writer.rootId(root.path, root.format);
      const notes: Defect[] = [...(root.rootNotes ?? []), ...root.files.flatMap((f) => f.notes ?? [])];
      if (notes.length) summary.defects += await writer.addDefects(rootId, notes);
      for (const file of root.files) {
        work.push({ root, file, rootId });
        // A database row source has no file to stat (its size is known once its rows are read,
        // when it is planned): it adds nothing to the total, without a lookup and a failing stat each.
        if (file.rows) continue;
        const current = await writer.currentFile(file.path);
        bytesTotal += Math.max(0, sizeOf(file.path) - (current?.offset ?? 0));
      }
    }
    // Plan a few files ahead of the one being written (cheap: stat and a lookup each).
    const chain = new Map<string, ChainLink>();
    const queue = chunkQueue(bytesTotal, options);
    let bytesDone = 0;
    let filesDone = 0;
    try {
      const planned: { plan: FilePlan; path: string }[] = [];
      let next = 0;
      while (next < work.length || planned.length > 0) {
        while (next < work.length && planned.length < LOOKAHEAD_FILES) {
          const { root, file, rootId } = work[next++]!;
          const plan = await planFile(writer, root.importer, file, rootId, chain);
          if (plan.kind === 'parse') queue.submit(plan.job);
          planned.push({ plan, path: file.path });
        }
        const { plan, path } = planned.shift()!;
        // The next document is parsed now and compresses while this file is written (one ahead:
        // a parsed document is held in memory until it is written); this one first, so documents
        // are still parsed in file order.
        if (plan.kind === 'document') prepareDocument(plan);
        const following = planned[0]?.plan;
        if (following?.kind === 'document') prepareDocument(following);
        options.onProgress?.({ filesDone, filesTotal: work.length, bytesDone, bytesTotal, currentFile: path });
        const outcome = await runPlan(writer, plan, queue, (n) => {
          bytesDone += n;
          heap.check();
          options.onProgress?.({ filesDone, filesTotal: work.length, bytesDone, bytesTotal, currentFile: path });
        });
        filesDone++;
        summary.files++;
        if (outcome.unchanged) summary.filesUnchanged++;
        else summary.filesRead++;
        summary.events += outcome.events;
        summary.lines += outcome.lines;
        summary.badLines += outcome.badLines;
        summary.bytes += outcome.bytes;
        summary.defects += outcome.defects;
        if (outcome.rewritten) summary.rewrites++;
      }
    } finally {
      await queue.close();
    }
    options.onProgress?.({ filesDone, filesTotal: work.length, bytesDone: bytesTotal, bytesTotal, currentFile: '' });
    heap.check(); // the summaries read every touched session back: from a heap without the parse's garbage
    summary.sessionsTouched = await writer.summarizeDirty((format, input) => importerFor(format).summarize(input));
    summary.sessions = (await store.totals()).sessions;
  } finally {
    await writer.release();
  }
  summary.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return summary;
}

