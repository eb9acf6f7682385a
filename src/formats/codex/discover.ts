// A Codex root → its rollout files, in reading order: `sessions/` then `archived_sessions/` (each
// walked down its date folders), then loose rollouts lying in the home itself. One file is one
// session, named by the thread uuid at the end of its file name.

import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Defect } from '../../core/model.js';
import { entryProblemNote, ledgerEntryProblem } from '../entry-problems.js';
import type { SourceFile } from '../importer.js';
import { compareNames, isRolloutName, ROLLOUT_LEDGER, SESSION_FOLDERS, sessionIdFromName } from './layout.js';

/** sessions/YYYY/MM/DD is three levels; a little slack for hand-made copies, never unbounded. */
const MAX_DEPTH = 5;

const rel = (...parts: string[]) => parts.filter((p) => p !== '').join('/');

function warning(kind: string, file: string, message: string, sessionId: string | null = null): Defect {
  return { severity: 'warning', kind, file, line: null, message, sessionId };
}

interface Found {
  path: string;
  relPath: string;
  archived: boolean;
}

/** Every `.jsonl` below `dir` (depth-bounded, each real folder once), in name order. */
async function walk(dir: string, relDir: string, depth: number, archived: boolean, seenDirs: Set<string>, out: Found[], notes: Defect[]): Promise<void> {
  const real = await realpath(dir).catch(() => dir);
  if (seenDirs.has(real)) {
    notes.push(warning('symlink_loop', relDir, 'folder was already walked (a symlink loop or a second link to it); not read twice'));
    return;
  }
  seenDirs.add(real);
  let names: string[];
  try {
    names = (await readdir(dir)).sort(compareNames);
  } catch (err) {
    notes.push(warning('unreadable_folder', relDir, `folder could not be read (${(err as Error).message}); its rollouts were skipped`));
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const relPath = rel(relDir, name);
    let isDir = false;
    let isFile = false;
    try {
      const s = await stat(path);
      isDir = s.isDirectory();
      isFile = s.isFile();
    } catch {
      // A dangling link named like a rollout is reported below; anything else is not ours.
    }
    if (isDir) {
      if (depth < MAX_DEPTH) await walk(path, relPath, depth + 1, archived, seenDirs, out, notes);
      continue;
    }
    if (!name.endsWith('.jsonl')) continue;
    if (!isFile) {
      const problem = await ledgerEntryProblem(path);
      if (problem) notes.push(entryProblemNote(problem, relPath, sessionIdFromName(name)));
      continue;
    }
    out.push({ path, relPath, archived });
  }
}

/** Loose rollouts in the home itself (not where Codex writes them, and ccusage does not read them there). */
async function looseRollouts(root: string): Promise<Found[]> {
  const names = (await readdir(root).catch(() => [] as string[])).filter(isRolloutName).sort(compareNames);
  const found: Found[] = [];
  for (const name of names) {
    const s = await stat(join(root, name)).catch(() => null);
    if (s?.isFile()) found.push({ path: join(root, name), relPath: name, archived: false });
  }
  return found;
}

/** Bytes read to find the session id of a rollout whose name does not carry it. */
const HEAD_BYTES = 256 * 1024;

/**
 * The session id of a rollout: the uuid its name ends with, else the id of its first record
 * (session_meta, or the meta line of a pre-wrapper rollout), else the name itself.
 */
async function sessionIdOf(path: string, name: string): Promise<string> {
  const fromName = sessionIdFromName(name);
  if (fromName !== name.replace(/\.jsonl$/, '')) return fromName;
  let handle;
  try {
    handle = await open(path, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    const end = text.indexOf('\n');
    if (end < 0) return fromName;
    const first = JSON.parse(text.slice(0, end)) as Record<string, unknown>;
    const meta = first.type === 'session_meta' ? (first.payload as Record<string, unknown> | undefined) : first.type === undefined ? first : undefined;
    const id = typeof meta?.id === 'string' ? meta.id.trim() : '';
    return id !== '' && /^[\w.:-]{1,200}$/.test(id) ? id.toLowerCase() : fromName;
  } catch {
    return fromName;
  } finally {
    await handle?.close();
  }
}

async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/**
 * Every rollout under `root`. A session id met twice (a rollout both in `sessions/` and in
 * `archived_sessions/`, a copy beside the original) is read once: later copies are kept as
 * evidence only, with a warning, so no call is counted twice.
 */
export async function discoverCodex(root: string, rootNotes?: Defect[]): Promise<SourceFile[]> {
  const notes: Defect[] = [];
  const found: Found[] = [];
  const seenDirs = new Set<string>();
  const homeFolders = [];
  for (const folder of SESSION_FOLDERS) if (await isDir(join(root, folder))) homeFolders.push(folder);
  if (homeFolders.length > 0) {
    for (const folder of homeFolders) await walk(join(root, folder), folder, 1, folder === 'archived_sessions', seenDirs, found, notes);
    const loose = await looseRollouts(root);
    for (const f of loose) {
      notes.push({
        severity: 'info',
        kind: 'loose_rollout',
        file: f.relPath,
        line: null,
        message: 'rollout lies in the Codex home itself, outside sessions/ (Codex never writes one there; ccusage does not count it): read as a session',
        sessionId: await sessionIdOf(f.path, f.relPath),
      });
    }
    found.push(...loose);
  } else {
    await walk(root, '', 1, root.split(/[\\/]/).includes('archived_sessions'), seenDirs, found, notes);
  }

  const files: SourceFile[] = [];
  const firstFile = new Map<string, string>();
  for (const f of found) {
    const name = f.relPath.slice(f.relPath.lastIndexOf('/') + 1);
    const sessionId = await sessionIdOf(f.path, name);
    const earlier = firstFile.get(sessionId);
    const file: SourceFile = {
      path: f.path,
      root,
      relPath: f.relPath,
      ledger: ROLLOUT_LEDGER,
      ledgerRank: 0,
      sessionId,
      kind: 'jsonl',
    };
    if (earlier !== undefined) {
      file.evidenceOnly = true;
      file.ledger = `${ROLLOUT_LEDGER}.copy`;
      file.notes = [
        warning('duplicate_session_file', f.relPath, `session ${sessionId} was already read from ${earlier}; this copy is kept as evidence only, so its calls are not counted twice`, sessionId),
      ];
    } else {
      firstFile.set(sessionId, f.relPath);
      file.facts = [{ id: sessionId, format: 'codex', mainLedger: ROLLOUT_LEDGER, attrs: { file: f.relPath, archived: f.archived } }];
    }
    files.push(file);
  }

  if (rootNotes) rootNotes.push(...notes);
  else if (notes.length > 0 && files.length > 0) files[0]!.notes = [...(files[0]!.notes ?? []), ...notes];
  return files;
}
