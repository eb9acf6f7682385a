// Which paths hold runtime sessions (cheap checks: detection runs on every path given to ingest),
// and where the runtime records them on this machine. Codex lays its rollouts out in the same
// YYYY/MM/DD folders, so a folder is claimed only when a session file in it opens with the
// runtime's session_start record.

import { basename, join } from 'node:path';
import { compareNames, headOf, kindOf, namesIn } from '../shared/fs-entries.js';
import { DATE_FOLDER, defaultSessionsRoot, isSessionHead, SESSIONS_FOLDER, sessionIdFromName } from './layout.js';

/** Bytes of a file read to recognise its first record (a session_start line is small). */
const HEAD_BYTES = 8192;
/** Date folders looked into per level while probing, newest first. */
const PROBE_FOLDERS = 3;
/** Session files looked at per folder while probing. */
const PROBE_FILES = 3;

/** A file whose first line is the runtime's session_start. */
export async function startsLikeSession(file: string): Promise<boolean> {
  const head = await headOf(file, HEAD_BYTES);
  const end = head.indexOf('\n');
  return isSessionHead(end === -1 ? head : head.slice(0, end));
}

/** True when `dir` holds a session file, directly or `depth` date folders down (bounded). */
async function holdsSessions(dir: string, depth: number): Promise<boolean> {
  const names = (await namesIn(dir)).sort(compareNames).reverse();
  for (const name of names.filter((n) => sessionIdFromName(n) !== null).slice(0, PROBE_FILES)) {
    if (await startsLikeSession(join(dir, name))) return true;
  }
  if (depth === 0) return false;
  for (const name of names.filter((n) => DATE_FOLDER.test(n)).slice(0, PROBE_FOLDERS)) {
    if (await holdsSessions(join(dir, name), depth - 1)) return true;
  }
  return false;
}

/**
 * A sessions root (`…/hindsight/sessions`), the data folder above it, a date folder below it, or
 * one session file.
 */
export async function detectHindsight(path: string): Promise<boolean> {
  const kind = await kindOf(path);
  if (kind === 'file') return path.endsWith('.jsonl') && (await startsLikeSession(path));
  if (kind !== 'dir') return false;
  if ((await kindOf(join(path, SESSIONS_FOLDER))) === 'dir' && (await holdsSessions(join(path, SESSIONS_FOLDER), 3))) return true;
  return holdsSessions(path, DATE_FOLDER.test(basename(path)) ? 2 : 3);
}

/**
 * The sessions root of this machine when it exists.
 *
 * @example await hindsightDefaultRoots(process.env, os.homedir()) // ['/home/me/.local/share/hindsight/sessions']
 */
export async function hindsightDefaultRoots(env: NodeJS.ProcessEnv, home: string): Promise<string[]> {
  const root = defaultSessionsRoot(env, home);
  return (await kindOf(root)) === 'dir' ? [root] : [];
}
