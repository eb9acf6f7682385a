// A sessions root → its session files, in reading order (date folders in name order, so oldest
// first). One file is one session, named by its id; a handoff child names its parent in its own
// session_start line, which the parser turns into the parent link.

import { join } from 'node:path';
import type { Defect } from '../../core/model.js';
import { entryProblemNote, ledgerEntryProblem } from '../entry-problems.js';
import type { SourceFile } from '../importer.js';
import { isListing, kindOf, listDir } from '../shared/fs-entries.js';
import { DATE_FOLDER, HINDSIGHT_FORMAT, SESSION_LEDGER, SESSIONS_FOLDER, sessionIdFromName } from './layout.js';

/** YYYY/MM/DD is three levels; a little slack for a root given one level up. */
const MAX_DEPTH = 4;

const rel = (...parts: string[]) => parts.filter((p) => p !== '').join('/');

function warning(kind: string, file: string, message: string): Defect {
  return { severity: 'warning', kind, file, line: null, message, sessionId: null };
}

/**
 * The source record of one session file under `root` (`relPath` with `/` separators): what
 * discovery returns for it, and what the recorder ingests after each step.
 */
export function sessionSource(root: string, path: string, relPath: string): SourceFile | null {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  const sessionId = sessionIdFromName(name);
  if (sessionId === null) return null;
  return {
    path,
    root,
    relPath,
    ledger: SESSION_LEDGER,
    ledgerRank: 0,
    sessionId,
    kind: 'jsonl',
    facts: [{ id: sessionId, format: HINDSIGHT_FORMAT, mainLedger: SESSION_LEDGER, attrs: { file: relPath } }],
  };
}

async function walk(dir: string, relDir: string, depth: number, out: SourceFile[], notes: Defect[], root: string): Promise<void> {
  const listing = await listDir(dir);
  if (!isListing(listing)) {
    notes.push(warning('unreadable_folder', relDir, `folder could not be read (${listing.error}); its sessions were skipped`));
    return;
  }
  for (const problem of listing.problems) {
    const relPath = rel(relDir, problem.name);
    if (!problem.name.endsWith('.jsonl')) continue;
    const found = await ledgerEntryProblem(problem.path);
    notes.push(found ? entryProblemNote(found, relPath, sessionIdFromName(problem.name)) : warning('unreadable_file', relPath, `session file could not be examined (${problem.reason})`));
  }
  for (const entry of listing.entries) {
    const relPath = rel(relDir, entry.name);
    if (entry.type === 'dir') {
      // Only date folders (and, at the top, a `sessions/` folder) are the recorder's.
      if (depth < MAX_DEPTH && (DATE_FOLDER.test(entry.name) || (depth === 0 && entry.name === SESSIONS_FOLDER))) await walk(entry.path, relPath, depth + 1, out, notes, root);
      continue;
    }
    if (entry.type !== 'file') {
      if (entry.name.endsWith('.jsonl')) {
        const found = await ledgerEntryProblem(entry.path);
        if (found) notes.push(entryProblemNote(found, relPath, sessionIdFromName(entry.name)));
      }
      continue;
    }
    const source = sessionSource(root, entry.path, relPath);
    if (source) out.push(source);
  }
}

/** Every session file under `root` (a sessions root, the data folder above it, or a date folder). */
export async function discoverHindsight(root: string, rootNotes?: Defect[]): Promise<SourceFile[]> {
  const notes: Defect[] = [];
  const files: SourceFile[] = [];
  if ((await kindOf(root)) === 'dir') await walk(root, '', 0, files, notes, root);
  else notes.push(warning('unreadable_folder', '', 'the sessions root is not a folder that can be read'));
  const seen = new Map<string, string>();
  for (const f of files) {
    const earlier = seen.get(f.sessionId!);
    if (earlier === undefined) {
      seen.set(f.sessionId!, f.relPath);
      continue;
    }
    // The recorder appends a resumed session to its one file; a second file of the same id is a copy.
    f.evidenceOnly = true;
    f.ledger = `${SESSION_LEDGER}.copy`;
    f.facts = [];
    f.notes = [{ severity: 'warning', kind: 'duplicate_session_file', file: f.relPath, line: null, message: `session ${f.sessionId} was already read from ${earlier}; this copy is kept as evidence only, so its calls are not counted twice`, sessionId: f.sessionId! }];
  }
  if (rootNotes) rootNotes.push(...notes);
  else if (notes.length > 0 && files.length > 0) files[0]!.notes = [...(files[0]!.notes ?? []), ...notes];
  return files;
}
