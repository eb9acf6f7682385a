// What kind of folder the user pointed at. Accepted: a Gemini home (`~/.gemini`, with `tmp/`),
// its `tmp/` folder (what GEMINI_DATA_DIR names), one project folder (`chats/` inside), a
// `chats/` folder, or a sub-agent folder `chats/<parentSessionId>/`. The project and the
// parent session always come from folder names, never from the root's own name.

import { basename, dirname, join } from 'node:path';
import { kindOf, namesIn } from '../shared/fs-entries.js';
import { CHATS_DIR, SESSION_FILE_RE, SUBAGENT_FILE_RE, TMP_DIR } from './layout.js';
import { looksLikeChatFile } from './session-head.js';

export type RootShape =
  /** Project folders under `tmpDir`; `home` is the Gemini home when known (for projects.json). */
  | { shape: 'projects'; tmpDir: string; tmpRel: string; home: string | undefined }
  | { shape: 'project'; project: string; projectDir: string; home: string | undefined }
  | { shape: 'chats'; project: string | undefined; chatsDir: string; home: string | undefined }
  | { shape: 'subagents'; project: string | undefined; parentId: string; dir: string; home: string | undefined };

/** Children looked at before detection gives up (it must stay cheap on big homes). */
const PROBE = 50;

/** A folder directly holding a Gemini session file (checked by content, not just by name). */
async function holdsSessionFile(dir: string): Promise<boolean> {
  const names = (await namesIn(dir)).filter((n) => SESSION_FILE_RE.test(n)).sort().slice(0, 3);
  for (const name of names) if (await looksLikeChatFile(join(dir, name))) return true;
  return false;
}

/** A sub-agent folder: inside `chats/`, holding `<id>.jsonl` files with Gemini headers. */
async function isSubagentFolder(dir: string): Promise<boolean> {
  if (basename(dirname(dir)) !== CHATS_DIR) return false;
  const names = (await namesIn(dir)).filter((n) => SUBAGENT_FILE_RE.test(n)).sort().slice(0, 3);
  for (const name of names) if (await looksLikeChatFile(join(dir, name))) return true;
  return false;
}

async function holdsProjects(dir: string): Promise<boolean> {
  for (const name of (await namesIn(dir)).sort().slice(0, PROBE)) {
    if (await holdsSessionFile(join(dir, name, CHATS_DIR))) return true;
  }
  return false;
}

/** The Gemini home above a `tmp/` folder, when it looks like one (its parent holds projects.json or is `.gemini`). */
async function homeAbove(tmpDir: string): Promise<string | undefined> {
  const parent = dirname(tmpDir);
  if (basename(tmpDir) !== TMP_DIR) return undefined;
  if (basename(parent) === '.gemini' || (await kindOf(join(parent, 'projects.json'))) === 'file') return parent;
  return undefined;
}

/**
 * The shape of `root` for discovery (lenient: an empty `tmp/` is still a home). Null when `root`
 * is not a folder.
 */
export async function resolveRootShape(root: string): Promise<RootShape | null> {
  if ((await kindOf(root)) !== 'dir') return null;
  if ((await kindOf(join(root, TMP_DIR))) === 'dir') {
    return { shape: 'projects', tmpDir: join(root, TMP_DIR), tmpRel: TMP_DIR, home: root };
  }
  if ((await kindOf(join(root, CHATS_DIR))) === 'dir') {
    const tmp = dirname(root);
    return { shape: 'project', project: basename(root), projectDir: root, home: await homeAbove(tmp) };
  }
  if (basename(root) === CHATS_DIR || (await holdsSessionFile(root))) {
    const projectDir = dirname(root);
    const named = basename(root) === CHATS_DIR;
    return { shape: 'chats', project: named ? basename(projectDir) : undefined, chatsDir: root, home: named ? await homeAbove(dirname(projectDir)) : undefined };
  }
  if (await isSubagentFolder(root)) {
    const projectDir = dirname(dirname(root));
    return { shape: 'subagents', project: basename(projectDir), parentId: basename(root), dir: root, home: await homeAbove(dirname(projectDir)) };
  }
  return { shape: 'projects', tmpDir: root, tmpRel: '', home: await homeAbove(root) };
}

/**
 * Strict, cheap check for format detection: some chat file with a Gemini header must be there
 * (a Claude Code or Amplifier folder never holds `chats/session-*.json` with a projectHash).
 */
export async function looksLikeGemini(path: string): Promise<boolean> {
  const kind = await kindOf(path);
  if (kind === 'file') {
    const name = basename(path);
    const inSubagentFolder = basename(dirname(dirname(path))) === CHATS_DIR && SUBAGENT_FILE_RE.test(name);
    return (SESSION_FILE_RE.test(name) || inSubagentFolder) && looksLikeChatFile(path);
  }
  if (kind !== 'dir') return false;
  if ((await kindOf(join(path, TMP_DIR))) === 'dir') return holdsProjects(join(path, TMP_DIR));
  if (await holdsSessionFile(join(path, CHATS_DIR))) return true;
  if (await holdsSessionFile(path)) return true;
  if (await isSubagentFolder(path)) return true;
  return holdsProjects(path);
}
