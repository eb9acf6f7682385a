// Walks an Amplifier root to its session folders (fixed depth: projects/<slug>/sessions/<id>/,
// so a symlink loop can never recurse) and returns every file in a deterministic order.

import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Defect } from '../../core/model.js';
import type { SourceFile } from '../importer.js';
import { isListing, listDir } from '../shared/fs-entries.js';
import { resolveRootShape } from './root-shape.js';
import { readSessionFolder, type SessionFolder } from './session-folder.js';

const rel = (...parts: string[]) => parts.filter((p) => p !== '').join('/');

function folderNote(kind: string, file: string, message: string): Defect {
  return { severity: 'warning', kind, file, line: null, message, sessionId: null };
}

interface SessionsDir {
  slug: string | undefined;
  dir: string;
  relDir: string;
}

/** The `sessions/` folders under a projects folder, one per project slug (sorted). */
async function sessionsDirs(projectsDir: string, projectsRel: string, notes: Defect[]): Promise<SessionsDir[]> {
  const listing = await listDir(projectsDir);
  if (!isListing(listing)) {
    notes.push(folderNote('unreadable_folder', projectsRel, `projects folder could not be read (${listing.error})`));
    return [];
  }
  for (const p of listing.problems) notes.push(folderNote('unreadable_entry', rel(projectsRel, p.name), `could not be examined (${p.reason}); skipped`));
  return listing.entries
    .filter((e) => e.type === 'dir')
    .map((e) => ({ slug: e.name, dir: join(e.path, 'sessions'), relDir: rel(projectsRel, e.name, 'sessions') }));
}

/**
 * Every source file under `root`: per session (sorted by project, then id) metadata.json,
 * transcript.jsonl, events.jsonl, then rewritten-history backups as evidence. Findings that
 * belong to no session file ride on the first file returned.
 */
export async function discoverAmplifier(root: string, rootNotes?: Defect[]): Promise<SourceFile[]> {
  const shape = await resolveRootShape(root);
  if (!shape) return [];
  const notes: Defect[] = [];
  const folders: SessionFolder[] = [];

  let dirs: SessionsDir[] = [];
  if (shape.shape === 'home' || shape.shape === 'projects') dirs = await sessionsDirs(shape.projectsDir, shape.projectsRel, notes);
  else if (shape.shape === 'project') dirs = [{ slug: shape.slug, dir: shape.sessionsDir, relDir: shape.sessionsRel }];
  else folders.push({ root, dir: shape.dir, relDir: '', id: shape.id, slug: shape.slug, siblings: [] });

  for (const sessions of dirs) {
    const listing = await listDir(sessions.dir);
    if (!isListing(listing)) {
      // A project folder without sessions/ is not an error (Amplifier creates it lazily).
      if (listing.code !== 'ENOENT') {
        notes.push(folderNote('unreadable_folder', sessions.relDir, `sessions folder could not be read (${listing.error})`));
      }
      continue;
    }
    for (const p of listing.problems) notes.push(folderNote('unreadable_entry', rel(sessions.relDir, p.name), `could not be examined (${p.reason}); skipped`));
    const names = listing.entries.filter((e) => e.type === 'dir').map((e) => e.name);
    for (const entry of listing.entries) {
      if (entry.type !== 'dir') continue;
      folders.push({ root, dir: entry.path, relDir: rel(sessions.relDir, entry.name), id: entry.name, slug: sessions.slug, siblings: names });
    }
  }

  const files: SourceFile[] = [];
  const seenReal = new Map<string, string>();
  const seenIds = new Map<string, string>();
  for (const folder of folders) {
    // Two links to one folder, or one id in two projects, would merge two copies into one session.
    const real = await realpath(folder.dir).catch(() => folder.dir);
    const dupOf = seenReal.get(real) ?? seenIds.get(folder.id);
    if (dupOf !== undefined) {
      notes.push(folderNote('duplicate_session_folder', folder.relDir, `session ${folder.id} was already read from ${dupOf || '.'}; this copy was skipped`));
      continue;
    }
    seenReal.set(real, folder.relDir);
    seenIds.set(folder.id, folder.relDir);
    const out = await readSessionFolder(folder);
    files.push(...out.files);
    notes.push(...out.notes);
  }

  // Root-level findings go to the caller's list, else onto the first file.
  if (rootNotes) rootNotes.push(...notes);
  else if (notes.length > 0 && files.length > 0) {
    const first = files[0]!;
    first.notes = [...(first.notes ?? []), ...notes];
  }
  return files;
}
