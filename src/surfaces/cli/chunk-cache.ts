// Runs a chunk of the bundled CLI from its script file with V8's code cache. Why: Node 20 gives ES
// modules no compile cache (module.enableCompileCache arrives in Node 22), and a warm report spent
// ~14 ms compiling its 410 KB `report` chunk, most of it pre-parsing functions it never calls. The
// build (scripts/cached-chunks.mjs) writes the chunk's code as a script — one function taking the
// chunk's imports and returning its exports — and leaves a small ES module in the chunk's place
// that calls loadCachedChunk, so every importer is unchanged.
//
// The cache file sits beside the script (<script>.v8cache) and holds a copy of the exact source
// bytes it was made from, with node's version, V8's version and the architecture: it is used only
// when all of them equal the running ones (V8 itself checks only the source's length and its
// flags). Anything else — no file, a short or damaged file, other bytes, other versions, V8
// rejecting the data — means compiling the script normally, and writing a fresh cache when the
// process exits (then it also holds the functions this run compiled lazily). A cache that cannot
// be read or written (a read-only install) is never an error: the chunk runs uncached.

import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The first bytes of a cache file; a new layout gets a new number. */
const MAGIC = 'hindsight-chunk-cache 1\n';

/** What a cache file must have been made by, besides the same source bytes. */
function runtimeKey(): string {
  return `${process.version} v8 ${process.versions.v8} ${process.arch}\n`;
}

/** The chunk's code as a function of (import, import.meta, imports) returning its exports in the build's order. */
type ChunkFunction = (load: (specifier: string) => Promise<unknown>, meta: ImportMeta, imports: Record<string, unknown>) => unknown[];

/** How a loadCachedChunk call went: the cache used, or why not (then a fresh one is written later). */
export type CacheOutcome = 'used' | 'missing' | 'invalid' | 'rejected';

/** The outcome of each loadCachedChunk call in this process, by script path (for tests and measurements). */
export const cacheOutcomes = new Map<string, CacheOutcome>();

/** Runs `write` when the process exits: the data then holds the functions this run compiled as well. */
const atExit = (write: () => void): void => {
  process.once('exit', write);
};

/** The cache file's path for a script. */
export function cachePathOf(scriptPath: string): string {
  return `${scriptPath}.v8cache`;
}

/** The cached data in `file` when it was made from exactly `source` by this node; else why not. */
function cachedDataFor(file: Buffer | null, source: Buffer): Buffer | 'missing' | 'invalid' {
  if (file === null) return 'missing';
  const header = Buffer.from(MAGIC + runtimeKey(), 'latin1');
  const sourceEnd = header.length + source.length;
  if (file.length <= sourceEnd || !file.subarray(0, header.length).equals(header)) return 'invalid';
  if (!file.subarray(header.length, sourceEnd).equals(source)) return 'invalid';
  return file.subarray(sourceEnd);
}

/** `path`'s bytes, or null when it cannot be read (missing, a folder, no permission). */
function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * Write the cache for `script` (compiled from `source`) to `cachePath`: into a file of this process
 * first, renamed into place, so a reader never sees half a file and concurrent writers each
 * leave a whole one. Failures leave no cache and are not reported.
 */
export function writeChunkCache(cachePath: string, source: Buffer, script: Script): void {
  const temp = `${cachePath}.${process.pid}.tmp`;
  let fd: number | undefined;
  try {
    // Opened before the data is made: where nothing can be written (a read-only install), every
    // run would otherwise pay for serialising the code only to drop it.
    fd = openSync(temp, 'w');
    const data = script.createCachedData();
    for (const part of [Buffer.from(MAGIC + runtimeKey(), 'latin1'), source, data]) {
      let done = 0;
      while (done < part.length) done += writeSync(fd, part, done);
    }
    closeSync(fd);
    fd = undefined;
    renameSync(temp, cachePath);
  } catch {
    try {
      if (fd !== undefined) closeSync(fd);
      unlinkSync(temp);
    } catch {
      // Nothing was written, or it cannot be removed: either way no cache is used from it.
    }
  }
}

/**
 * Run the chunk script at `scriptUrl` (made by scripts/cached-chunks.mjs) and return its exports in
 * the order the build listed them. `load` is the facade's own import(), so the chunk's lazy imports
 * resolve from the chunk's folder; `meta` is the facade's import.meta (same folder); `imports` holds
 * the facade's imported bindings by their local names. `writeLater` schedules the writing of a fresh
 * cache (tests run it at once).
 */
export function loadCachedChunk(
  scriptUrl: URL,
  load: (specifier: string) => Promise<unknown>,
  meta: ImportMeta,
  imports: Record<string, unknown>,
  writeLater: (write: () => void) => void = atExit,
): unknown[] {
  const scriptPath = fileURLToPath(scriptUrl);
  const source = readFileSync(scriptPath);
  const cachePath = cachePathOf(scriptPath);
  const cached = cachedDataFor(readOrNull(cachePath), source);
  const script = new Script(source.toString('utf8'), { filename: scriptPath, ...(typeof cached === 'string' ? {} : { cachedData: cached }) });
  const outcome: CacheOutcome = typeof cached === 'string' ? cached : script.cachedDataRejected ? 'rejected' : 'used';
  cacheOutcomes.set(scriptPath, outcome);
  if (outcome !== 'used') writeLater(() => writeChunkCache(cachePath, source, script));
  const chunk = script.runInThisContext() as ChunkFunction;
  return chunk(load, meta, imports);
}
