// The few figures of a path the refresh stamp compares (refresh-stamp.ts), read the cheap way.
//
// Why: a warm report stats every file and folder below the default roots (~1,900 on a 300 MB
// Claude Code config folder) before it may answer from the store. In a fresh process Node 20's
// `statSync` costs ~10 µs each, two thirds of it JavaScript that runs once and is never optimised:
// argument checks, a `Stats` object and four `Date`s built from the numbers (Node 22 makes the
// dates lazy; 20 does not). The fs binding's own `stat` returns those numbers in a Float64Array:
// the same stats took ~8 ms of CPU instead of ~20 ms (docs/benchmarks.md, "Warm reports").
//
// That binding is Node's internal API (process.binding is deprecated in the documentation), so it
// is used only when it gives exactly what `statSync` gives: the first use in each process checks
// one file (node's own executable) both ways, and only if that Node's statSync calls the binding as
// this module does; any difference, a missing binding, an error reaching it or --pending-deprecation
// (which would print a warning) means `statSync` for the whole process.
// Everything a stamp compares (mtimeMs, size, kind, dev, ino) is computed as Node computes it.

import { statSync, type Stats } from 'node:fs';

/** What a stamp holds of a path: its kind, size, mtime and identity (dev, ino). */
export interface StampStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/** stat(2) of a path, or undefined when it does not exist; other errors throw as `statSync`'s do. */
export type StampStatFn = (path: string) => StampStat | undefined;

/** The part of the fs binding used here: stat(path, useBigint, req, throwIfNoEntry). */
interface RawFsBinding {
  stat(path: string, useBigint: boolean, req: undefined, throwIfNoEntry: boolean): Float64Array | undefined;
}

// Positions in the binding's stat array (Node's own order, src/node_file.h FsStatsOffset).
const DEV = 0;
const MODE = 1;
const INO = 7;
const SIZE = 8;
const MTIME_SEC = 12;
const MTIME_NSEC = 13;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

function fromStats(s: Stats): StampStat {
  return { isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size, mtimeMs: s.mtimeMs, dev: s.dev, ino: s.ino };
}

/** `statSync` as a StampStatFn: the reference, and the fallback. */
export const statThroughFs: StampStatFn = (path) => {
  const s = statSync(path, { throwIfNoEntry: false });
  return s ? fromStats(s) : undefined;
};

function fromRaw(a: Float64Array): StampStat {
  const kind = a[MODE]! & S_IFMT;
  // Node's msFromTimeSpec: sec * 1e3 + nsec / 1e6, so the float equals Stats.mtimeMs bit for bit.
  return { isFile: kind === S_IFREG, isDirectory: kind === S_IFDIR, size: a[SIZE]!, mtimeMs: a[MTIME_SEC]! * 1e3 + a[MTIME_NSEC]! / 1e6, dev: a[DEV]!, ino: a[INO]! };
}

const same = (a: StampStat | undefined, b: StampStat | undefined): boolean =>
  a !== undefined && b !== undefined && (Object.keys(a) as (keyof StampStat)[]).every((k) => Object.is(a[k], b[k]));

/**
 * A StampStatFn over `binding` when, for `probe` (an existing path), it answers exactly as
 * `statSync`; else `statSync` itself. Exported for tests, which hand it bindings that lie.
 */
export function stampStatOver(binding: unknown, probe: string): StampStatFn {
  const stat = (binding as Partial<RawFsBinding> | undefined)?.stat;
  if (typeof stat !== 'function') return statThroughFs;
  const raw: StampStatFn = (path) => {
    // Only a string reaches the binding: its native check on anything else ends the process rather
    // than throwing (a stamp file edited by hand could hold a list there), and a NUL would end the
    // path early in C. statSync refuses both with an error, so it answers for them.
    if (typeof path !== 'string' || path.includes('\0')) return statThroughFs(path);
    // The array is the binding's own buffer, rewritten by the next stat: read it at once.
    const a = stat.call(binding, path, false, undefined, false);
    return a === undefined ? undefined : fromRaw(a);
  };
  try {
    const a = stat.call(binding, probe, false, undefined, false);
    if (!(a instanceof Float64Array) || a.length <= MTIME_NSEC) return statThroughFs;
    return same(fromRaw(a), statThroughFs(probe)) ? raw : statThroughFs;
  } catch {
    return statThroughFs;
  }
}

/**
 * Whether this Node's own statSync (its source, `source`) calls the binding as stat(path, bigint,
 * undefined, throwIfNoEntry), the call made here. Older releases passed an error context object
 * fourth, and a native argument check that fails ends the process rather than throwing: the
 * binding is called only the way the running Node calls it itself.
 */
export function callsStatAsHere(source: string = statSync.toString()): boolean {
  return /binding\.stat\([^;]*?,options\.bigint,undefined,options\.throwIfNoEntry,?\)/.test(source.replace(/\s+/g, ''));
}

/** Whether asking for the binding would print a deprecation warning. */
function warnsOnBinding(): boolean {
  const flag = '--pending-deprecation';
  return process.execArgv.includes(flag) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).includes(flag);
}

let chosen: StampStatFn | undefined;

/** The StampStatFn of this process, chosen on first use (node's executable checked both ways). */
export function stampStat(): StampStatFn {
  if (chosen) return chosen;
  let binding: unknown;
  try {
    binding = warnsOnBinding() || !callsStatAsHere() ? undefined : (process as unknown as { binding(name: string): unknown }).binding('fs');
  } catch {
    binding = undefined; // a Node without it, or a permission model that refuses it
  }
  chosen = stampStatOver(binding, process.execPath);
  return chosen;
}
