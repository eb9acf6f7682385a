// Folder listing for discovery that never throws: unreadable folders, dangling symlinks, symlink
// loops and folders reached twice through symlinks become notes (defects) and are skipped.

import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Defect } from '../../core/model.js';
import { entryProblemNote, ledgerEntryProblem, specialFileProblem } from '../entry-problems.js';

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

/** A FIFO, socket or device named like a transcript: never read (it could block), but reported. */
async function noteSpecial(walk: Walk, path: string): Promise<void> {
  const problem = await ledgerEntryProblem(path);
  if (problem) walk.notes.push(entryProblemNote(problem, relTo(walk, path)));
}

/** Entries of `dir` sorted by name (symlinks followed), or [] with a note when unreadable. */
export async function listFolder(walk: Walk, dir: string): Promise<Entry[]> {
  let dirents: Dirent[];
  try {
    dirents = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    note(walk, 'warning', 'unreadable_folder', dir, `folder could not be read (${errCode(err)}); skipped`);
    return [];
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: Entry[] = [];
  for (const d of dirents) {
    const path = join(dir, d.name);
    if (!d.isSymbolicLink()) {
      if (!d.isFile() && !d.isDirectory() && TRANSCRIPT_NAME_RE.test(d.name)) await noteSpecial(walk, path);
      out.push({ name: d.name, path, isDir: d.isDirectory(), isFile: d.isFile() });
      continue;
    }
    try {
      const st = await stat(path);
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
export async function firstVisit(walk: Walk, dir: string): Promise<boolean> {
  let real: string;
  try {
    real = await realpath(dir);
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

export async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
