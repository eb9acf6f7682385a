// One session folder → its source files (metadata, transcript, events, rewritten-history
// backups kept as evidence), the facts its names give, and notes on what is missing or odd.

import { join } from 'node:path';
import type { Defect, SessionFacts } from '../../core/model.js';
import { entryProblemNote, ledgerEntryProblem } from '../entry-problems.js';
import type { SourceFile } from '../importer.js';
import { REWIND_FILE, rewindSourceFile } from '../rewind-ledger.js';
import { isListing, listDir } from '../shared/fs-entries.js';
import { parseBackupName, parseSubagentId, ROOT_PARENT_SPAN, SESSION_FILES } from './layout.js';
import { factsFromMetadata, readSmallJson } from './metadata-parser.js';

export interface SessionFolder {
  root: string;
  dir: string;
  /** Folder path relative to the root ('' when the root is the folder itself). */
  relDir: string;
  id: string;
  slug: string | undefined;
  /** Names of sibling session folders, to link a nested sub-agent to its parent by span. */
  siblings: readonly string[];
}

/** Rank of evidence-only backups: after every parsed ledger. */
const BACKUP_RANK = 9;

const rel = (relDir: string, name: string) => (relDir ? `${relDir}/${name}` : name);

function note(severity: Defect['severity'], kind: string, file: string, message: string, sessionId: string | null): Defect {
  return { severity, kind, file, line: null, message, sessionId };
}

/**
 * Facts the layout gives. A uuid session's kind needs metadata.json (parent_id → fork); it is
 * peeked here so the layout never says 'root' for a fork, even on a later incremental ingest
 * where metadata.json is not re-parsed.
 */
function layoutFacts(folder: SessionFolder, present: Set<string>, ledgers: string[]): SessionFacts {
  const facts: SessionFacts = {
    id: folder.id,
    format: 'amplifier',
    mainLedger: 'transcript',
    attrs: { dir: folder.relDir, ledgers },
  };
  if (folder.slug !== undefined) facts.project = folder.slug;
  const sub = parseSubagentId(folder.id);
  if (sub) {
    facts.kind = 'subagent';
    // The id keeps only a sanitised agent name ('foundation-explorer'). It goes to attrs, not
    // agentName: layout facts are re-applied whenever a file grows, and would overwrite the real
    // name ('foundation:explorer') that metadata.json or the parent's delegate record gave.
    facts.attrs = { ...facts.attrs, agentSlug: sub.agentSlug };
    if (sub.parentSpan !== ROOT_PARENT_SPAN) {
      const parent = folder.siblings.find((s) => parseSubagentId(s)?.childSpan === sub.parentSpan);
      if (parent) facts.parentId = parent;
    }
    return facts;
  }
  let meta: Record<string, unknown> | null = null;
  if (present.has('metadata.json')) meta = readSmallJson(join(folder.dir, 'metadata.json'));
  if (!meta && present.has('metadata.json.backup')) meta = readSmallJson(join(folder.dir, 'metadata.json.backup'));
  const fromMeta = meta ? factsFromMetadata(folder.id, meta) : undefined;
  facts.kind = fromMeta?.kind ?? 'root';
  facts.parentId = fromMeta?.parentId ?? null;
  return facts;
}

/** Files, facts and notes of one session folder; `notes` also collects folder-level findings. */
export async function readSessionFolder(folder: SessionFolder): Promise<{ files: SourceFile[]; notes: Defect[] }> {
  const notes: Defect[] = [];
  const listing = await listDir(folder.dir);
  if (!isListing(listing)) {
    notes.push(note('warning', 'unreadable_folder', folder.relDir, `session folder could not be read (${listing.error}); its session was skipped`, null));
    return { files: [], notes };
  }
  for (const p of listing.problems) {
    const problem = await ledgerEntryProblem(p.path);
    if (problem) notes.push(entryProblemNote(problem, rel(folder.relDir, p.name), folder.id));
    else notes.push(note('warning', 'unreadable_entry', rel(folder.relDir, p.name), `could not be examined (${p.reason}); skipped`, folder.id));
  }
  // A FIFO or socket in a session folder is never read (it could block), but never skipped silently.
  for (const e of listing.entries.filter((x) => x.type === 'other')) {
    const problem = await ledgerEntryProblem(e.path);
    if (problem) notes.push(entryProblemNote(problem, rel(folder.relDir, e.name), folder.id));
  }
  const present = new Set(listing.entries.filter((e) => e.type === 'file').map((e) => e.name));
  const files: SourceFile[] = [];
  const base = { root: folder.root, sessionId: folder.id };

  for (const spec of SESSION_FILES) {
    const entry = listing.entries.find((e) => e.name === spec.name && e.type === 'file');
    if (!entry) continue;
    const relPath = rel(folder.relDir, spec.name);
    files.push({ ...base, path: entry.path, relPath, ledger: spec.ledger, ledgerRank: spec.rank, kind: spec.kind });
    // A 0-byte events.jsonl (a never-resumed fork) is reported by the pipeline as `empty_file`.
  }
  const hasAny = files.length > 0;
  // Hindsight's own record of applied rewinds (src/formats/rewind-ledger.ts): a ledger of this session.
  const rewinds = listing.entries.find((e) => e.name === REWIND_FILE && e.type === 'file');
  if (rewinds) files.push(rewindSourceFile(base, rewinds.path, rel(folder.relDir, REWIND_FILE)));
  if (hasAny && !present.has('metadata.json')) {
    notes.push(
      note(
        'warning',
        'missing_metadata',
        folder.relDir,
        'no metadata.json: a sub-agent still running (the spawner writes it when the child finishes) or a session killed before its first save',
        folder.id,
      ),
    );
  }

  for (const entry of listing.entries) {
    if (entry.type !== 'file') continue;
    const backup = parseBackupName(entry.name);
    if (!backup) continue;
    const relPath = rel(folder.relDir, entry.name);
    if (backup.kind === 'backup') {
      notes.push(note('info', 'backup_file', relPath, `previous version of ${backup.of}, kept by the writer on every second save`, folder.id));
      continue;
    }
    notes.push(
      note(
        'warning',
        `${backup.kind}_backup`,
        relPath,
        `${backup.of} was rewritten by a ${backup.kind} at ${backup.stamp}; this copy holds the history from before it and is kept as evidence`,
        folder.id,
      ),
    );
    const spec = SESSION_FILES.find((s) => s.name === backup.of);
    files.push({
      ...base,
      path: entry.path,
      relPath,
      ledger: `${spec?.ledger ?? backup.of}.bak-pre-${backup.kind}-${backup.stamp}`,
      ledgerRank: BACKUP_RANK,
      kind: spec?.kind ?? 'jsonl',
      evidenceOnly: true,
    });
  }

  if (files.length === 0) {
    notes.push(note('info', 'not_a_session_folder', folder.relDir, 'folder holds no metadata.json, transcript.jsonl or events.jsonl; skipped', null));
    return { files, notes };
  }
  const ledgers = files.filter((f) => !f.evidenceOnly).map((f) => f.ledger);
  const first = files[0]!;
  first.facts = [layoutFacts(folder, present, ledgers)];
  first.notes = notes.splice(0);
  return { files, notes };
}
