// Finds every Claude Code file under a root, in a deterministic order: per slug folder (sorted),
// per session id (sorted) the transcript, then its sub-agent files and their meta documents; then
// older-layout `agent-*.jsonl` files that sit beside the transcripts.
//
//   <slug>/<sessionId>.jsonl                              ledger transcript, session <sessionId>
//   <slug>/<sessionId>/subagents/agent-<id>.jsonl          ledger agent-<id>, session <sessionId>:<id>
//   <slug>/<sessionId>/subagents/agent-<id>.meta.json      ledger agent-<id>.meta (document, facts only)
//   <slug>/agent-<id>.jsonl                                ledger agent-<id>; parent named by its lines
//   <slug>/<sessionId>/hindsight-rewinds.jsonl             ledger rewinds (Hindsight's rewind record)
//
// Findings (unreadable folders, symlink loops) go to the caller's root-notes list, or ride on
// the first file returned when no list is given.

import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Defect, SessionFacts } from '../../core/model.js';
import type { SourceFile } from '../importer.js';
import { REWIND_FILE, rewindSourceFile } from '../rewind-ledger.js';
import { firstVisit, isDir, listFolder, type Walk } from './folder-list.js';
import { slugFolders, type SlugFolder } from './roots.js';
import { transcriptSessionId } from './line-session.js';
import { isCompactionAgent } from './session-routing.js';

const AGENT_JSONL_RE = /^agent-(.+)\.jsonl$/;
const AGENT_META_RE = /^agent-(.+)\.meta\.json$/;

/** A regular file (a link is not followed: it could point outside the root). Synchronous: folder-list.ts says why. */
function isFile(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function relPath(slug: SlugFolder, ...parts: string[]): string {
  return [slug.rel, ...parts].filter((p) => p !== '').join('/');
}

function rootFacts(id: string, project: string): SessionFacts {
  return { id, format: 'claude-code', project, kind: 'root', mainLedger: 'transcript' };
}

function childFacts(parentId: string, agentId: string, project: string): SessionFacts {
  return {
    id: `${parentId}:${agentId}`,
    format: 'claude-code',
    project,
    parentId,
    kind: isCompactionAgent(agentId) ? 'compaction' : 'subagent',
    mainLedger: `agent-${agentId}`,
    attrs: { agentId },
  };
}

/** Sub-agent files of one session (new layout), jsonl before its meta document. */
function subagentFiles(walk: Walk, root: string, slug: SlugFolder, sessionId: string): SourceFile[] {
  const dir = join(slug.dir, sessionId, 'subagents');
  if (!isDir(dir)) return [];
  const out: SourceFile[] = [];
  for (const e of listFolder(walk, dir)) {
    if (!e.isFile) continue;
    const jsonl = AGENT_JSONL_RE.exec(e.name);
    const meta = AGENT_META_RE.exec(e.name);
    const agentId = jsonl?.[1] ?? meta?.[1];
    if (agentId === undefined) continue;
    const facts = childFacts(sessionId, agentId, slug.name);
    out.push({
      path: e.path,
      root,
      relPath: relPath(slug, sessionId, 'subagents', e.name),
      ledger: meta ? `agent-${agentId}.meta` : `agent-${agentId}`,
      ledgerRank: meta ? 2 : 1,
      sessionId: facts.id,
      kind: meta ? 'document' : 'jsonl',
      facts: [facts],
    });
  }
  // `agent-x.jsonl` sorts after `agent-x.meta.json`; read the lines first, then the document.
  return out.sort((a, b) => (a.ledger < b.ledger ? -1 : a.ledger > b.ledger ? 1 : a.ledgerRank - b.ledgerRank));
}

async function slugFiles(walk: Walk, root: string, slug: SlugFolder): Promise<SourceFile[]> {
  if (!firstVisit(walk, slug.dir)) return [];
  const entries = listFolder(walk, slug.dir);
  const transcripts = new Map<string, SourceFile>();
  const sessionDirs = new Set<string>();
  const oldAgents: SourceFile[] = [];
  const sessionless: SourceFile[] = [];
  for (const e of entries) {
    if (e.isDir) {
      sessionDirs.add(e.name);
    } else if (e.isFile && e.name.endsWith('.jsonl')) {
      const agent = AGENT_JSONL_RE.exec(e.name);
      if (agent) {
        oldAgents.push({
          path: e.path,
          root,
          relPath: relPath(slug, e.name),
          ledger: `agent-${agent[1]}`,
          ledgerRank: 1,
          kind: 'jsonl',
          facts: [],
        });
        continue;
      }
      // The id its lines carry when the name is not one (line-session.ts); none: evidence only.
      const id = await transcriptSessionId(e.path, e.name.slice(0, -'.jsonl'.length));
      const file: SourceFile = { path: e.path, root, relPath: relPath(slug, e.name), ledger: 'transcript', ledgerRank: 0, kind: 'jsonl', facts: [] };
      if (id === undefined) sessionless.push(file);
      else if (!transcripts.has(id)) transcripts.set(id, { ...file, sessionId: id, facts: [rootFacts(id, slug.name)] });
      else sessionless.push(file); // a second copy of a session's transcript: kept as evidence
    }
  }
  const ids = [...new Set([...transcripts.keys(), ...sessionDirs])].sort();
  const out: SourceFile[] = [];
  for (const id of ids) {
    const transcript = transcripts.get(id);
    if (transcript) out.push(transcript);
    if (sessionDirs.has(id) && firstVisit(walk, join(slug.dir, id))) {
      out.push(...subagentFiles(walk, root, slug, id));
      // Hindsight's own record of applied rewinds (src/formats/rewind-ledger.ts), a ledger of the session.
      const rewinds = join(slug.dir, id, REWIND_FILE);
      if (transcript && isFile(rewinds)) out.push(rewindSourceFile({ root, sessionId: id }, rewinds, relPath(slug, id, REWIND_FILE)));
    }
  }
  // Older layout: the parent is only known from the lines, so the parser announces the session.
  return [...out, ...oldAgents, ...sessionless];
}

export async function discoverClaudeCode(rootPath: string, rootNotes?: Defect[]): Promise<SourceFile[]> {
  const root = resolve(rootPath);
  const walk: Walk = { root, notes: [], visited: new Set() };
  const files: SourceFile[] = [];
  for (const slug of slugFolders(walk, root)) files.push(...(await slugFiles(walk, root, slug)));
  const first = files[0];
  if (rootNotes) rootNotes.push(...walk.notes);
  else if (first && walk.notes.length > 0) first.notes = [...(first.notes ?? []), ...walk.notes];
  return files;
}
