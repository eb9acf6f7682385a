// Walks a Gemini root to its chat files (fixed depth: tmp/<project>/chats/[<parent>/]<file>, so
// a symlink loop can never recurse) and returns them in a deterministic order: per project
// folder (sorted), the main sessions' files by name, then each sub-agent folder's files.
//
//   <project>/chats/session-<start>-<id8>.jsonl      ledger chat, session from its header
//   <project>/chats/session-<start>-<id8>.json       ledger chat.json (document); evidence only
//                                                    (ledger chat-legacy) when the CLI migrated
//                                                    it to the .jsonl beside it on resume
//   <project>/chats/<parentId>/<id>.jsonl            ledger chat, session <parentId>:<id> (sub-agent)
//
// logs.json (the prompt log), tool outputs and checkpoints are not sessions and are not read.

import { dirname, join } from 'node:path';
import type { Defect, SessionFacts } from '../../core/model.js';
import type { SourceFile } from '../importer.js';
import { isListing, listDir, type Entry } from '../shared/fs-entries.js';
import { CHAT_LEDGER, CHATS_DIR, DOCUMENT_LEDGER, LEGACY_LEDGER, SESSION_FILE_RE, stemOf, SUBAGENT_FILE_RE, subagentSessionId } from './layout.js';
import { projectPaths, type ProjectPaths } from './project-path.js';
import { resolveRootShape, type RootShape } from './root-shape.js';
import { readSessionHead } from './session-head.js';

const rel = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join('/');

function note(severity: Defect['severity'], kind: string, file: string, message: string, sessionId: string | null = null): Defect {
  return { severity, kind, file, line: null, message, sessionId };
}

/** A chats folder to read, with what the layout says about its project and parent session. */
interface ChatsFolder {
  dir: string;
  relDir: string;
  project: string | undefined;
  /** Set for a sub-agent folder `chats/<parentId>/`. */
  parentId?: string;
}

interface Context {
  root: string;
  notes: Defect[];
  paths: ProjectPaths;
  /** Session id → the relPath that claimed it first (one live file per session). */
  claimed: Map<string, string>;
  files: SourceFile[];
}

async function layoutFacts(cx: Context, id: string, folder: ChatsFolder, ledger: string): Promise<SessionFacts> {
  const facts: SessionFacts = { id, format: 'gemini', mainLedger: ledger };
  if (folder.project) {
    facts.project = folder.project;
    const path = await cx.paths.pathOf(folder.project);
    if (path) facts.projectPath = path;
  }
  if (folder.parentId) {
    facts.parentId = folder.parentId;
    facts.kind = 'subagent';
  } else {
    facts.kind = 'root';
    facts.parentId = null;
  }
  return facts;
}

/** One chat file as a SourceFile (or a note when it cannot be one). */
async function chatFile(cx: Context, folder: ChatsFolder, entry: Entry, supersededBy: string | undefined): Promise<void> {
  const relPath = rel(folder.relDir, entry.name);
  const layout: SourceFile['kind'] = entry.name.endsWith('.jsonl') ? 'jsonl' : 'document';
  const head = await readSessionHead(entry.path, layout);
  const stem = stemOf(entry.name);
  const notes: Defect[] = [];
  let ownId = head.sessionId;
  if (!ownId) {
    // ccusage falls back to the file name too; say so, since the name holds only 8 characters of the id.
    ownId = stem;
    notes.push(note('warning', 'session_id_from_name', relPath, `no sessionId in the first 64 KB; the session is named after the file (${stem})`));
  }
  const id = folder.parentId ? subagentSessionId(folder.parentId, ownId) : ownId;
  for (const n of notes) n.sessionId = id;
  const ledger = layout === 'jsonl' ? CHAT_LEDGER : DOCUMENT_LEDGER;
  const facts = await layoutFacts(cx, id, folder, ledger);
  if (folder.parentId) facts.attrs = { agentSessionId: ownId };
  const base = { path: entry.path, root: cx.root, relPath, ledgerRank: 1, sessionId: id, kind: layout, facts: [facts] };

  if (supersededBy) {
    notes.push(
      note('info', 'migrated_session_file', relPath, `${supersededBy} continues this session (Gemini CLI copies a .json chat into .jsonl when it is resumed); this file is kept as evidence only`, id),
    );
    // No layout facts: the live file of the session says them (its main ledger is not this one).
    cx.files.push({ ...base, ledger: LEGACY_LEDGER, evidenceOnly: true, facts: [], notes });
    return;
  }
  const first = cx.claimed.get(id);
  if (first !== undefined) {
    notes.push(note('warning', 'duplicate_session_file', relPath, `session ${id} was already read from ${first}; this copy is kept as evidence only`, id));
    cx.files.push({ ...base, ledger: `${ledger}-copy-${stem}`, evidenceOnly: true, facts: [], notes });
    return;
  }
  cx.claimed.set(id, relPath);
  cx.files.push({ ...base, ledger, notes });
}

async function readChatsFolder(cx: Context, folder: ChatsFolder): Promise<void> {
  const listing = await listDir(folder.dir);
  if (!isListing(listing)) {
    // A project folder without chats/ is normal (the CLI creates it with the first chat).
    if (listing.code !== 'ENOENT') cx.notes.push(note('warning', 'unreadable_folder', folder.relDir, `chats folder could not be read (${listing.error})`));
    return;
  }
  for (const p of listing.problems) cx.notes.push(note('warning', 'unreadable_entry', rel(folder.relDir, p.name), `could not be examined (${p.reason}); skipped`));
  const pattern = folder.parentId ? SUBAGENT_FILE_RE : SESSION_FILE_RE;
  const files = listing.entries.filter((e) => e.type === 'file' && pattern.test(e.name));
  const jsonl = new Set(files.filter((e) => e.name.endsWith('.jsonl')).map((e) => e.name));
  for (const entry of files) {
    const migrated = entry.name.endsWith('.json') && jsonl.has(`${entry.name}l`) ? `${entry.name}l` : undefined;
    await chatFile(cx, folder, entry, migrated);
  }
  if (folder.parentId) return;
  for (const sub of listing.entries.filter((e) => e.type === 'dir')) {
    await readChatsFolder(cx, { dir: sub.path, relDir: rel(folder.relDir, sub.name), project: folder.project, parentId: sub.name });
  }
}

/** The folder holding the project folders, when the shape says where it is. */
function tmpDirOf(shape: RootShape): string | undefined {
  switch (shape.shape) {
    case 'projects':
      return shape.tmpDir;
    case 'project':
      return dirname(shape.projectDir);
    case 'chats':
      return shape.project === undefined ? undefined : dirname(dirname(shape.chatsDir));
    case 'subagents':
      return dirname(dirname(dirname(shape.dir)));
  }
}

/**
 * Every chat file under `root`, in reading order. Findings that belong to no file go to
 * `rootNotes` when given, else onto the first file.
 */
export async function discoverGemini(root: string, rootNotes?: Defect[]): Promise<SourceFile[]> {
  const shape = await resolveRootShape(root);
  if (!shape) return [];
  const cx: Context = {
    root,
    notes: [],
    paths: await projectPaths(shape.home, tmpDirOf(shape)),
    claimed: new Map(),
    files: [],
  };
  if (shape.shape === 'projects') {
    const listing = await listDir(shape.tmpDir);
    if (!isListing(listing)) cx.notes.push(note('warning', 'unreadable_folder', shape.tmpRel, `folder could not be read (${listing.error})`));
    else {
      for (const p of listing.problems) cx.notes.push(note('warning', 'unreadable_entry', rel(shape.tmpRel, p.name), `could not be examined (${p.reason}); skipped`));
      for (const project of listing.entries.filter((e) => e.type === 'dir')) {
        await readChatsFolder(cx, { dir: join(project.path, CHATS_DIR), relDir: rel(shape.tmpRel, project.name, CHATS_DIR), project: project.name });
      }
    }
  } else if (shape.shape === 'project') {
    await readChatsFolder(cx, { dir: join(shape.projectDir, CHATS_DIR), relDir: CHATS_DIR, project: shape.project });
  } else if (shape.shape === 'chats') {
    await readChatsFolder(cx, { dir: shape.chatsDir, relDir: '', project: shape.project });
  } else {
    await readChatsFolder(cx, { dir: shape.dir, relDir: '', project: shape.project, parentId: shape.parentId });
  }

  if (rootNotes) rootNotes.push(...cx.notes);
  else if (cx.notes.length > 0 && cx.files.length > 0) {
    const first = cx.files[0]!;
    first.notes = [...(first.notes ?? []), ...cx.notes];
  }
  return cx.files;
}
