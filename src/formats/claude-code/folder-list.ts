// Folder listing for discovery that never throws: unreadable folders, dangling symlinks, symlink
// loops and folders reached twice through symlinks become notes (defects) and are skipped.
//
// Synchronous on purpose: discovery makes four or five file-system calls per session, one after
// the other, and only the CLI's ingest and usage pass run it (no server does). Through the thread
// pool each call waited for a thread and, when the entry was missing, built an Error with a stack:
// 1,514 files took 100–150 ms of CPU and 0.4–0.55 s on a loaded machine, synchronously 20–50 ms.

import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Defect } from '../../core/model.js';
import { entryProblemNote, specialFileProblem } from '../entry-problems.js';

const TRANSCRIPT_NAME_RE = /\.(jsonl|json)$/;

export interface Entry {
  name: string;
  path: string;
  isDir: boolean;
  isFile: boolean;
}

export interface Walk {
  root: string;
  notes: Defect[];
  /** Real paths of folders already walked (a symlinked copy is skipped, not ingested twice). */
  visited: Set<string>;
}

export function relTo(walk: Walk, path: string): string {
  return relative(walk.root, path).split(sep).join('/');
}

function note(walk: Walk, severity: Defect['severity'], kind: string, path: string, message: string): void {
  walk.notes.push({ severity, kind, file: relTo(walk, path), line: null, message, sessionId: null });
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN';
}

/** A FIFO, socket or device named like a transcript (not a link): never read (it could block), but reported. */
function noteSpecial(walk: Walk, path: string): void {
  let problem = null;
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    problem = st ? specialFileProblem(st) : null;
  } catch {
    // Cannot be examined: the pipeline reports it its own way.
  }
  if (problem) walk.notes.push(entryProblemNote(problem, relTo(walk, path)));
}

/** Entries of `dir` sorted by name (symlinks followed), or [] with a note when unreadable. */
export function listFolder(walk: Walk, dir: string): Entry[] {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    note(walk, 'warning', 'unreadable_folder', dir, `folder could not be read (${errCode(err)}); skipped`);
    return [];
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: Entry[] = [];
  for (const d of dirents) {
    const path = join(dir, d.name);
    if (!d.isSymbolicLink()) {
      if (!d.isFile() && !d.isDirectory() && TRANSCRIPT_NAME_RE.test(d.name)) noteSpecial(walk, path);
      out.push({ name: d.name, path, isDir: d.isDirectory(), isFile: d.isFile() });
      continue;
    }
    try {
      const st = statSync(path);
      const problem = TRANSCRIPT_NAME_RE.test(d.name) ? specialFileProblem(st) : null;
      if (problem) walk.notes.push(entryProblemNote(problem, relTo(walk, path)));
      out.push({ name: d.name, path, isDir: st.isDirectory(), isFile: st.isFile() });
    } catch (err) {
      // A transcript name is still returned as a file: the pipeline reports it unreadable and
      // keeps its stored evidence (the link may point at a log that was deleted or moved).
      if (TRANSCRIPT_NAME_RE.test(d.name)) {
        out.push({ name: d.name, path, isDir: false, isFile: true });
        continue;
      }
      const code = errCode(err);
      const kind = code === 'ELOOP' ? 'symlink_loop' : 'broken_symlink';
      note(walk, 'warning', kind, path, `symlink could not be followed (${code}); skipped`);
    }
  }
  return out;
}

/** True the first time a folder's real path is seen; a repeat gets an info note. */
export function firstVisit(walk: Walk, dir: string): boolean {
  let real: string;
  try {
    real = realpathSync.native(dir);
  } catch (err) {
    note(walk, 'warning', 'unreadable_folder', dir, `folder could not be resolved (${errCode(err)}); skipped`);
    return false;
  }
  if (walk.visited.has(real)) {
    note(walk, 'info', 'duplicate_folder', dir, `folder is a symlink to one already read (${real}); skipped so its sessions are not ingested twice`);
    return false;
  }
  walk.visited.add(real);
  return true;
}

export function isDir(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
