// Which paths are Codex roots (cheap checks only: detection runs on every path given to ingest),
// and where Codex keeps its sessions on this machine.

import { open, readdir, realpath, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { compareNames, isRolloutName, SESSION_FOLDERS } from './layout.js';

/** Entries looked at per folder while detecting, so a huge folder costs a bounded listing. */
const PROBE_ENTRIES = 200;
/** sessions/YYYY/MM/DD: the rollouts sit three folders down. */
const PROBE_DEPTH = 3;
/** Bytes of a lone file read to recognise a rollout by its first record. */
const HEAD_BYTES = 4096;

async function kindOf(path: string): Promise<'file' | 'dir' | null> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

/** Date folders (`2026`, `05`, `11`) are the only folders Codex makes inside `sessions/`. */
const DATE_FOLDER = /^\d{2,4}$/;

/** True when `dir` holds a rollout file, directly or down its date folders (bounded). */
async function holdsRollouts(dir: string, depth: number): Promise<boolean> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort(compareNames);
  } catch {
    return false;
  }
  const probe = names.slice(0, PROBE_ENTRIES);
  if (probe.some(isRolloutName)) return true;
  if (depth === 0) return false;
  // Newest date folders last in name order; the first few are enough to tell.
  for (const name of probe.filter((n) => DATE_FOLDER.test(n)).slice(0, 3)) {
    if (await holdsRollouts(join(dir, name), depth - 1)) return true;
  }
  return false;
}

/** A file whose first record is Codex's `session_meta` (a rollout, whatever its name). */
async function startsLikeRollout(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    const head = buf.subarray(0, bytesRead).toString('utf8');
    return /^\s*\{[^\n]*"type"\s*:\s*"session_meta"/.test(head) && head.includes('"payload"');
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

/**
 * A Codex home (a `sessions/` or `archived_sessions/` folder holding rollouts), one of those
 * folders, a folder of rollouts (a date folder), or one rollout file. Other formats' roots hold no
 * `rollout-*.jsonl`, so they are never claimed.
 */
export async function detectCodex(path: string): Promise<boolean> {
  const kind = await kindOf(path);
  if (kind === 'file') return path.endsWith('.jsonl') && (await startsLikeRollout(path));
  if (kind !== 'dir') return false;
  for (const folder of SESSION_FOLDERS) {
    if ((await kindOf(join(path, folder))) === 'dir' && (await holdsRollouts(join(path, folder), PROBE_DEPTH))) return true;
  }
  const name = basename(path);
  if ((SESSION_FOLDERS as readonly string[]).includes(name) || DATE_FOLDER.test(name)) return holdsRollouts(path, PROBE_DEPTH);
  return holdsRollouts(path, 0);
}

function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/**
 * Codex homes on this machine: `$CODEX_HOME` (a comma-separated list, as ccusage reads it) or
 * `~/.codex`, each kept when it has a sessions folder.
 *
 * @example await codexDefaultRoots(process.env, os.homedir()) // ['/home/me/.codex']
 */
export async function codexDefaultRoots(env: NodeJS.ProcessEnv, home: string): Promise<string[]> {
  const fromEnv = env.CODEX_HOME?.trim();
  const candidates = fromEnv
    ? fromEnv
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '')
        .map((p) => expandHome(p, home))
    : [join(home, '.codex')];
  const roots: string[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    let found = false;
    for (const folder of SESSION_FOLDERS) if ((await kindOf(join(candidate, folder))) === 'dir') found = true;
    if (!found) continue;
    const real = await realpath(candidate).catch(() => candidate);
    if (seen.has(real)) continue;
    seen.add(real);
    roots.push(candidate);
  }
  return roots;
}
