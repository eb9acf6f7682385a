// Which folders are OpenCode data folders (cheap checks: detection runs on every path given to
// ingest), and where OpenCode keeps its data on this machine: $OPENCODE_DATA_DIR, else
// $XDG_DATA_HOME/opencode, else ~/.local/share/opencode (OpenCode's Global.Path.data, which
// ccusage reads too).

import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { CHANNEL_DB, compareNames, DB_NAME, STORAGE } from './layout.js';

export type EntryType = 'file' | 'dir' | null;

export async function typeOf(path: string): Promise<EntryType> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

/** The database of a data folder: opencode.db, else the first channel database by name. */
export async function databaseOf(dir: string): Promise<string | null> {
  if ((await typeOf(join(dir, DB_NAME))) === 'file') return join(dir, DB_NAME);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const channel = names.filter((n) => CHANNEL_DB.test(n)).sort(compareNames)[0];
  return channel && (await typeOf(join(dir, channel))) === 'file' ? join(dir, channel) : null;
}

/** A pre-1.0 storage folder: it holds session/ or message/ folders. */
export async function isStorageFolder(dir: string): Promise<boolean> {
  return (await typeOf(join(dir, 'session'))) === 'dir' || (await typeOf(join(dir, 'message'))) === 'dir';
}

/**
 * An OpenCode data folder (a database, a storage/ folder, or the rows a sync mirror wrote under
 * an `opencode.db/` folder), or a storage/ folder given on its own.
 */
export async function looksLikeOpenCode(path: string): Promise<boolean> {
  if ((await typeOf(path)) !== 'dir') return false;
  if (await databaseOf(path)) return true;
  if ((await typeOf(join(path, DB_NAME, 'messages'))) === 'dir') return true;
  if ((await typeOf(join(path, STORAGE))) === 'dir' && (await isStorageFolder(join(path, STORAGE)))) return true;
  return basename(path) === STORAGE && (await isStorageFolder(path)) && (await typeOf(join(path, 'part'))) === 'dir';
}

/**
 * Existing OpenCode data folders, without duplicates.
 *
 * @example await openCodeDefaultRoots(process.env, os.homedir()) // ['/home/me/.local/share/opencode']
 */
export async function openCodeDefaultRoots(env: NodeJS.ProcessEnv, home: string): Promise<string[]> {
  const candidates: string[] = [];
  const fromEnv = env.OPENCODE_DATA_DIR?.trim();
  if (fromEnv) candidates.push(fromEnv.startsWith('~/') ? join(home, fromEnv.slice(2)) : fromEnv);
  const xdg = env.XDG_DATA_HOME?.trim();
  if (xdg && isAbsolute(xdg)) candidates.push(join(xdg, 'opencode'));
  candidates.push(join(home, '.local', 'share', 'opencode'));
  const roots: string[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (!(await looksLikeOpenCode(candidate))) continue;
    const real = await realpath(candidate).catch(() => candidate);
    if (seen.has(real)) continue;
    seen.add(real);
    roots.push(candidate);
  }
  return roots;
}
