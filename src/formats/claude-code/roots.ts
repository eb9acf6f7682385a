// Where Claude Code transcripts live: which paths are roots (detect), the default roots of this
// machine, and which slug folders a root holds.
//
// A root may be given three ways, all accepted: a config folder holding `projects/` (what
// CLAUDE_CONFIG_DIR names), a `projects/` folder itself, or one slug folder. Detection wants a
// slug folder with a uuid-named (or agent-*) .jsonl, or a .jsonl whose lines are Claude Code's, so a Control Plane ledger folder or an
// Amplifier home (`projects/<slug>/sessions/…`, no .jsonl in the slug) is not claimed.

import { readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { isDir, listFolder, type Walk } from './folder-list.js';
import { sessionIdInLines } from './line-session.js';

const SESSION_FILE_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;
const AGENT_FILE_RE = /^agent-[^/]+\.jsonl$/;
/** Slug folders looked at before giving up (detect must stay cheap). */
const DETECT_SLUG_LIMIT = 200;
/** Other .jsonl files of a folder read for Claude Code lines when none has a transcript's name. */
const DETECT_CONTENT_LIMIT = 3;

export interface SlugFolder {
  /** Absolute path. */
  dir: string;
  /** Path relative to the root ('' when the root is the slug folder). */
  rel: string;
  /** The project: the slug folder's name. */
  name: string;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/**
 * A folder that directly holds Claude Code transcript files: by name, else by content (a
 * transcript copied out of projects/ under another name is still one).
 */
async function isSlugFolder(dir: string): Promise<boolean> {
  const all = await names(dir);
  if (all.some((n) => SESSION_FILE_RE.test(n) || AGENT_FILE_RE.test(n))) return true;
  for (const n of all.filter((x) => x.endsWith('.jsonl')).sort().slice(0, DETECT_CONTENT_LIMIT)) {
    if ((await sessionIdInLines(join(dir, n))) !== undefined) return true;
  }
  return false;
}

async function holdsSlugFolders(dir: string): Promise<boolean> {
  const children = (await names(dir)).sort().slice(0, DETECT_SLUG_LIMIT);
  for (const child of children) {
    if (await isSlugFolder(join(dir, child))) return true;
  }
  return false;
}

/**
 * @example await detectClaudeCode(`${home}/.claude`) // true when projects/<slug>/<uuid>.jsonl exists
 */
export async function detectClaudeCode(path: string): Promise<boolean> {
  // One file: a transcript when its lines are Claude Code's, wherever it sits.
  if (path.endsWith('.jsonl') && !isDir(path)) return (await sessionIdInLines(path)) !== undefined;
  if (!isDir(path)) return false;
  if (isDir(join(path, 'projects'))) return holdsSlugFolders(join(path, 'projects'));
  if (await isSlugFolder(path)) return true;
  return holdsSlugFolders(path);
}

/** Each entry of comma-separated CLAUDE_CONFIG_DIR, else ~/.config/claude and ~/.claude — those with projects/. */
export async function defaultClaudeRoots(env: NodeJS.ProcessEnv, home: string): Promise<string[]> {
  const configured = env.CLAUDE_CONFIG_DIR?.trim();
  const candidates = configured
    ? configured
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '')
        .map((p) => (p === '~' || p.startsWith('~/') ? join(home, p.slice(1)) : p))
    : [join(home, '.config', 'claude'), join(home, '.claude')];
  const out: string[] = [];
  for (const candidate of candidates) {
    const abs = resolve(candidate);
    if (!out.includes(abs) && isDir(join(abs, 'projects'))) out.push(abs);
  }
  return out;
}

/** The slug folders under a root, in name order. */
export function slugFolders(walk: Walk, root: string): SlugFolder[] {
  if (isDir(join(root, 'projects'))) {
    const entries = listFolder(walk, join(root, 'projects'));
    return entries.filter((e) => e.isDir).map((e) => ({ dir: e.path, rel: `projects/${e.name}`, name: e.name }));
  }
  const entries = listFolder(walk, root);
  if (entries.some((e) => e.isFile && e.name.endsWith('.jsonl'))) return [{ dir: root, rel: '', name: basename(root) }];
  return entries.filter((e) => e.isDir).map((e) => ({ dir: e.path, rel: e.name, name: e.name }));
}
