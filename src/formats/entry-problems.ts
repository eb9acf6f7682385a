// Entries named like a ledger file that cannot be read as one: a FIFO, socket or device (reading
// would block or never end) and a symlink that points at nothing. Discovery skips them, and
// every format reports them the same way, as a warning with the entry's path, never silently.

import { lstat, readlink, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { Defect } from '../core/model.js';

export interface EntryProblem {
  kind: 'dangling_symlink' | 'not_a_regular_file';
  message: string;
}

function specialKind(s: Stats): string {
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** What is wrong with a special entry already stat'ed (through links): for listings that have the stats. */
export function specialFileProblem(s: Stats): EntryProblem | null {
  if (s.isFile() || s.isDirectory()) return null;
  return { kind: 'not_a_regular_file', message: `is ${specialKind(s)}, not a regular file; not read (reading it could block or never end)` };
}

/**
 * Why `path` cannot be read as a ledger file, or null when it is a regular file or a folder (or
 * cannot be examined for another reason, which the caller reports its own way).
 */
export async function ledgerEntryProblem(path: string): Promise<EntryProblem | null> {
  try {
    return specialFileProblem(await stat(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null;
    try {
      if (!(await lstat(path)).isSymbolicLink()) return null;
      const target = await readlink(path);
      return { kind: 'dangling_symlink', message: `symlink to ${target} points at nothing; skipped (its stored evidence, if any, is kept)` };
    } catch {
      return null;
    }
  }
}

/** The finding for an entry problem, relative to the root. */
export function entryProblemNote(problem: EntryProblem, relPath: string, sessionId: string | null = null): Defect {
  return { severity: 'warning', kind: problem.kind, file: relPath, line: null, message: problem.message, sessionId };
}
