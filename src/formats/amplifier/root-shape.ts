// What kind of folder the user pointed at. Accepted: an Amplifier home (`projects/` inside),
// a `projects` folder, one project folder (`sessions/` inside), a `sessions/` folder, or one
// session folder (inside `sessions/`, or holding two of metadata.json / transcript.jsonl / events.jsonl).
// Project slug and session id always come from the folder names, never from the root's name.

import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { kindOf as statSafe } from '../shared/fs-entries.js';
import { SESSION_FILES } from './layout.js';

export type RootShape =
  /** `~/.amplifier`: sessions under projects/<slug>/sessions/<id>/. */
  | { shape: 'home'; projectsDir: string; projectsRel: string }
  /** `~/.amplifier/projects`: sessions under <slug>/sessions/<id>/. */
  | { shape: 'projects'; projectsDir: string; projectsRel: string }
  /** `projects/<slug>`: sessions under sessions/<id>/. */
  | { shape: 'project'; slug: string; sessionsDir: string; sessionsRel: string }
  /** One session folder; the slug is known when it sits in `<slug>/sessions/`. */
  | { shape: 'session'; slug: string | undefined; id: string; dir: string };

/** How many children detection looks at before giving up (it must stay cheap on big homes). */
const DETECT_PROBE = 50;

async function sessionFileCount(dir: string): Promise<number> {
  let n = 0;
  for (const f of SESSION_FILES) if ((await statSafe(join(dir, f.name))) === 'file') n++;
  return n;
}

/** True when some child of `dir` (among the first few) has a `sessions/` folder. */
async function hasProjectChild(dir: string): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return false;
  }
  for (const name of names.slice(0, DETECT_PROBE)) {
    if ((await statSafe(join(dir, name, 'sessions'))) === 'dir') return true;
  }
  return false;
}

async function isSessionFolder(dir: string): Promise<boolean> {
  const count = await sessionFileCount(dir);
  if (count === 0) return false;
  return basename(dirname(dir)) === 'sessions' || count >= 2;
}

function sessionShape(dir: string): RootShape {
  const parent = dirname(dir);
  const slug = basename(parent) === 'sessions' ? basename(dirname(parent)) : undefined;
  return { shape: 'session', slug, id: basename(dir), dir };
}

/**
 * Decide the shape of `root` for discovery (lenient: an empty `projects/` is still a home).
 * Returns null when `root` is not a folder.
 */
export async function resolveRootShape(root: string): Promise<RootShape | null> {
  if ((await statSafe(root)) !== 'dir') return null;
  if ((await statSafe(join(root, 'projects'))) === 'dir') {
    return { shape: 'home', projectsDir: join(root, 'projects'), projectsRel: 'projects' };
  }
  if ((await statSafe(join(root, 'sessions'))) === 'dir') {
    return { shape: 'project', slug: basename(root), sessionsDir: join(root, 'sessions'), sessionsRel: 'sessions' };
  }
  if (await isSessionFolder(root)) return sessionShape(root);
  if (basename(root) === 'sessions') {
    return { shape: 'project', slug: basename(dirname(root)), sessionsDir: root, sessionsRel: '' };
  }
  return { shape: 'projects', projectsDir: root, projectsRel: '' };
}

/**
 * Strict, cheap check for format detection: there must be Amplifier's layout, not just a
 * `projects/` folder (Claude Code has one too, without `sessions/` inside).
 */
export async function looksLikeAmplifier(path: string): Promise<boolean> {
  if ((await statSafe(path)) !== 'dir') return false;
  if ((await statSafe(join(path, 'projects'))) === 'dir') return hasProjectChild(join(path, 'projects'));
  if (await hasProjectChild(path)) return true;
  if ((await statSafe(join(path, 'sessions'))) === 'dir') return hasSessionChild(join(path, 'sessions'));
  if (await isSessionFolder(path)) return true;
  return basename(path) === 'sessions' && hasSessionChild(path);
}

/** True when some child of a `sessions/` folder (among the first few) holds a session file. */
async function hasSessionChild(sessionsDir: string): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(sessionsDir);
  } catch {
    return false;
  }
  for (const name of names.slice(0, DETECT_PROBE)) {
    if ((await sessionFileCount(join(sessionsDir, name))) > 0) return true;
  }
  return false;
}
