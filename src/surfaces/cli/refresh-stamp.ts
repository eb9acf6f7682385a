// What the default locations looked like when the default store was last brought up to date, so
// that a report on an up-to-date store skips the refresh without loading the ingest pipeline or
// opening the store for writing (refresh.ts): a few thousand stats instead of an ingest.
//
// The stamp, `<store>.refresh.json` beside the default SQLite store, holds every folder and every
// file below the default roots with its mtime (and a file's size), taken just BEFORE the refresh's
// ingest and written once that ingest finished without a failed root. Taken before, not after, so
// a file written while the ingest ran differs from its stamp and is read by the next report.
// Nothing changed since, when:
// - the same roots are the defaults (the formats decide from the environment and the disk), the
//   same build wrote the stamp, and it is the same store file (inode and birth time);
// - every folder has its mtime (an entry added, removed or renamed changes its folder's mtime),
//   every file its size and mtime (the test the ingest itself makes: ingest-file.ts).
// Any doubt (no stamp, an unreadable one, a root too large to stamp) means a refresh, as before.
// The stats go through stamp-stat.ts (the fs binding's numbers when they equal statSync's): the
// snapshot and the check read mtimes the same way.

import { readdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion } from '../../core/package-info.js';
import { stampStat } from './stamp-stat.js';

/** Roots holding more entries than this are not stamped: the stats would cost what they save. */
const MAX_ENTRIES = 20_000;

export interface DefaultRoot {
  path: string;
  format: string;
}

interface Stamp {
  v: 1;
  version: string;
  store: { ino: number; birthtimeMs: number };
  roots: DefaultRoot[];
  /** [path, mtimeMs] */
  dirs: [string, number][];
  /** [path, size, mtimeMs] */
  files: [string, number, number][];
}

/** A snapshot taken before an ingest, written as the stamp once the ingest succeeded. */
export type Snapshot = Pick<Stamp, 'roots' | 'dirs' | 'files'>;

export function stampPath(dbPath: string): string {
  return `${dbPath}.refresh.json`;
}

/** The default roots this environment names, as ingest resolves them (real paths; missing ones left out). */
export async function defaultRootsNow(env: NodeJS.ProcessEnv, home: string): Promise<DefaultRoot[]> {
  // Only the formats' roots modules: a report on an up-to-date store never loads a format's parser.
  const { loadDefaultRootFinders } = await import('../../formats/registry.js');
  const roots: DefaultRoot[] = [];
  for (const { format, defaultRoots } of await loadDefaultRootFinders()) {
    for (const root of await defaultRoots(env, home)) {
      try {
        roots.push({ path: realpathSync(root), format });
      } catch {
        // gone since defaultRoots looked: nothing to stamp
      }
    }
  }
  return roots;
}

/**
 * Every folder and file below `roots` with its mtime and size (symbolic links followed, each real
 * folder once); null when there are too many to be worth it.
 */
export function takeSnapshot(roots: readonly DefaultRoot[]): Snapshot | null {
  const dirs: [string, number][] = [];
  const files: [string, number, number][] = [];
  const stamp = stampStat();
  // An entry that cannot be stat'ed (ELOOP: a link loop; EACCES) is left out like a FIFO: the
  // ingest reports it, and replacing it changes its folder's mtime, which the stamp holds.
  const stat = (path: string) => {
    try {
      return stamp(path);
    } catch {
      return undefined;
    }
  };
  const seen = new Set<string>();
  const pending = roots.map((r) => r.path);
  while (pending.length > 0) {
    const dir = pending.pop()!;
    const s = stat(dir);
    if (!s?.isDirectory) continue;
    const id = `${s.dev}:${s.ino}`;
    if (seen.has(id)) continue;
    seen.add(id);
    dirs.push([dir, s.mtimeMs]);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue; // unreadable: its mtime is stamped, and the ingest reports it
    }
    for (const name of names) {
      const path = join(dir, name);
      const entry = stat(path);
      if (entry?.isDirectory) pending.push(path);
      else if (entry?.isFile) files.push([path, entry.size, entry.mtimeMs]);
      if (dirs.length + files.length > MAX_ENTRIES) return null;
    }
  }
  return { roots: [...roots], dirs, files };
}

function storeIdentity(dbPath: string): Stamp['store'] | null {
  const s = statSync(dbPath, { throwIfNoEntry: false });
  return s ? { ino: s.ino, birthtimeMs: s.birthtimeMs } : null;
}

/** Record `snapshot` as what the store at `dbPath` now holds (after a successful ingest); best effort. */
export function writeStamp(dbPath: string, snapshot: Snapshot): void {
  const store = storeIdentity(dbPath);
  if (!store) return;
  const stamp: Stamp = { v: 1, version: packageVersion(), store, ...snapshot };
  // Written aside and renamed: a reader never sees half a stamp.
  const path = stampPath(dbPath);
  try {
    writeFileSync(`${path}.${process.pid}`, JSON.stringify(stamp));
    renameSync(`${path}.${process.pid}`, path);
  } catch {
    // A folder we cannot write: the next report refreshes, as without a stamp.
  }
}

/**
 * Whether `value` is a list of tuples of a string then `numbers` numbers (a stamp's dirs or files).
 * Plain loops: every warm report checks ~1,900 entries in a fresh process, where `every` with a
 * `slice` per entry took 1.7–3 ms and these loops take 0.3 ms.
 */
function isEntryList(value: unknown, numbers: number): boolean {
  if (!Array.isArray(value)) return false;
  for (const e of value as unknown[]) {
    if (!Array.isArray(e) || e.length !== numbers + 1 || typeof e[0] !== 'string') return false;
    for (let i = 1; i <= numbers; i++) if (typeof e[i] !== 'number') return false;
  }
  return true;
}

/** The stamp beside the store, or null when there is none or it is not one this build wrote (then: refresh). */
function readStamp(dbPath: string): Stamp | null {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(dbPath), 'utf8')) as Stamp;
    return stamp?.v === 1 && isEntryList(stamp.dirs, 1) && isEntryList(stamp.files, 2) ? stamp : null;
  } catch {
    return null;
  }
}

/** True when nothing below the default roots changed since the stamp of the store at `dbPath`. */
export function stampHolds(dbPath: string, roots: readonly DefaultRoot[]): boolean {
  const stamp = readStamp(dbPath);
  if (!stamp || stamp.version !== packageVersion()) return false;
  const store = storeIdentity(dbPath);
  if (!store || store.ino !== stamp.store.ino || store.birthtimeMs !== stamp.store.birthtimeMs) return false;
  if (JSON.stringify(stamp.roots) !== JSON.stringify(roots)) return false;
  const stat = stampStat();
  try {
    for (const [path, mtimeMs] of stamp.dirs) {
      if (stat(path)?.mtimeMs !== mtimeMs) return false;
    }
    for (const [path, size, mtimeMs] of stamp.files) {
      const s = stat(path);
      if (s?.size !== size || s.mtimeMs !== mtimeMs) return false;
    }
  } catch {
    // A stamped path that cannot be stat'ed now (ELOOP: it became a link loop; EACCES) has changed
    // since the stamp: refresh, and let the ingest say what is wrong with it. (ENOENT and ENOTDIR
    // are answered as "no entry" by the stat itself.)
    return false;
  }
  return true;
}
