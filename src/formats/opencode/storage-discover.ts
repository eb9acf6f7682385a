// The documents of a pre-1.0 storage/ folder, in reading order: per session (by id, which OpenCode
// makes ascending in time) its session document, then each message (by id) followed by its parts.
// Only session/, message/ and part/ are listed: session_share/ (share secrets), project/, todo/,
// session_diff/ and quarantine/ are never read, nor OpenCode's half-written `.oc-*.tmp` files.
//
// OpenCode 1.x copies these documents into its database on upgrade and leaves them in place, so a
// message the database also holds is the same message: its document (and its parts') is kept as
// evidence only and the database's row counts — ccusage reads the database first and skips files
// whose message id it has already seen.

import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Defect } from '../../core/model.js';
import type { SourceFile } from '../importer.js';
import { compareNames, LEDGER_RANK, MESSAGE_LEDGER, PART_LEDGER, STORAGE_SESSION_LEDGER } from './layout.js';

/** What the database of the same folder holds (storage/ copies of it are evidence only). */
export interface InDatabase {
  sessionIds: ReadonlySet<string>;
  messageIds: ReadonlySet<string>;
}

/** Sub-folder name → the `.json` documents inside it (ids), or null when there is no such folder. */
async function listFolders(dir: string, notes: Defect[], rel: string): Promise<Map<string, string[]> | null> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    notes.push({ severity: 'error', kind: 'unreadable_folder', file: rel, line: null, message: `cannot list ${rel} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
    return null;
  }
  const out = new Map<string, string[]>();
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => compareNames(a.name, b.name))) {
    try {
      const names = await readdir(join(dir, entry.name));
      out.set(entry.name, names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).map((n) => n.slice(0, -5)).sort(compareNames));
    } catch (err) {
      notes.push({ severity: 'error', kind: 'unreadable_folder', file: `${rel}/${entry.name}`, line: null, message: `cannot list ${rel}/${entry.name} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
    }
  }
  return out;
}

/** Every storage/ document to read under `storageDir`, with the database's copies marked evidence only. */
export async function discoverStorage(root: string, storageDir: string, inDb: InDatabase | null, notes: Defect[]): Promise<SourceFile[]> {
  const base = relative(root, storageDir).split('\\').join('/');
  const relOf = (...parts: string[]) => [base, ...parts].filter((p) => p !== '').join('/');
  const sessionFolders = (await listFolders(join(storageDir, 'session'), notes, relOf('session'))) ?? new Map<string, string[]>();
  const messageFolders = (await listFolders(join(storageDir, 'message'), notes, relOf('message'))) ?? new Map<string, string[]>();
  const partFolders = (await listFolders(join(storageDir, 'part'), notes, relOf('part'))) ?? new Map<string, string[]>();

  const sessionDoc = new Map<string, string>(); // session id → project folder
  for (const [project, ids] of sessionFolders) for (const id of ids) if (!sessionDoc.has(id)) sessionDoc.set(id, project);
  const file = (rel: string, ledger: string, sessionId: string | undefined, evidenceOnly: boolean): SourceFile => ({
    path: join(root, ...rel.split('/')),
    root,
    relPath: rel,
    ledger,
    ledgerRank: LEDGER_RANK[ledger]!,
    ...(sessionId ? { sessionId } : {}),
    kind: 'document',
    ...(evidenceOnly ? { evidenceOnly: true } : {}),
  });

  const files: SourceFile[] = [];
  const placed = new Set<string>();
  for (const sid of [...new Set([...sessionDoc.keys(), ...messageFolders.keys()])].sort(compareNames)) {
    const project = sessionDoc.get(sid);
    let copies = 0;
    if (project !== undefined) {
      const copy = inDb?.sessionIds.has(sid) ?? false;
      if (copy) copies++;
      files.push(file(relOf('session', project, `${sid}.json`), STORAGE_SESSION_LEDGER, sid, copy));
    }
    const first = files.length;
    for (const mid of messageFolders.get(sid) ?? []) {
      const copy = inDb?.messageIds.has(mid) ?? false;
      if (copy) copies++;
      files.push(file(relOf('message', sid, `${mid}.json`), MESSAGE_LEDGER, sid, copy));
      for (const pid of partFolders.get(mid) ?? []) files.push(file(relOf('part', mid, `${pid}.json`), PART_LEDGER, sid, copy));
      placed.add(mid);
    }
    const lead = files[project !== undefined ? first - 1 : first];
    if (!lead) continue;
    if (project === undefined) {
      lead.facts = [{ id: sid, format: 'opencode' }];
      lead.notes = [{ severity: 'warning', kind: 'missing_session_document', file: lead.relPath, line: null, message: `session ${sid} has messages but no session document: its title, folder and parent are unknown`, sessionId: sid }];
    }
    if (copies > 0) {
      (lead.notes ??= []).push({
        severity: 'info',
        kind: 'storage_copy_of_database',
        file: lead.relPath,
        line: null,
        message: `${copies} storage/ record(s) of session ${sid} are also in the database: kept as evidence only, the database's rows count (as ccusage counts them)`,
        sessionId: sid,
      });
    }
  }
  // Parts whose message has no document: read on their own (each names its session inside).
  for (const [mid, pids] of partFolders) {
    if (placed.has(mid)) continue;
    const copy = inDb?.messageIds.has(mid) ?? false;
    for (const pid of pids) files.push(file(relOf('part', mid, `${pid}.json`), PART_LEDGER, undefined, copy));
  }
  return files;
}
