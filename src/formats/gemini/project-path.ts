// The project path behind a project folder. Gemini names the folder after the project instead
// of writing the path into the chats: older CLIs use sha256(path), newer ones a slug kept in
// ~/.gemini/projects.json with the path also written to `<folder>/.project_root` (ProjectRegistry
// and Storage in gemini-cli's packages/core). Every answer here is one the files state or prove:
// a marker file, a registry entry, or a registry path whose sha256 is the folder's name.

import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HUGE_LINE_BYTES } from '../../core/model.js';
import { asObj, asString } from './json.js';
import { HISTORY_DIR, PROJECT_ROOT_FILE, PROJECTS_FILE, TMP_DIR } from './layout.js';

/** sha256 of a path, as Gemini's getProjectHash computes it. */
export function projectHashOf(path: string): string {
  return createHash('sha256').update(path).digest('hex');
}

const SHA256_RE = /^[0-9a-f]{64}$/;

async function readSmall(path: string): Promise<string | undefined> {
  try {
    if ((await stat(path)).size > HUGE_LINE_BYTES) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A `.project_root` marker's path (one absolute path, trimmed), when the file is there and says one. */
async function markerPath(dir: string): Promise<string | undefined> {
  const text = (await readSmall(join(dir, PROJECT_ROOT_FILE)))?.trim();
  return text && !text.includes('\n') ? text : undefined;
}

export interface ProjectPaths {
  /** The project path of a project folder name, when the files say it. */
  pathOf(folder: string): Promise<string | undefined>;
}

/**
 * Looks project folders up in one Gemini home (`home` undefined: only the folders' own markers).
 *
 * @example (await projectPaths('/home/me/.gemini').pathOf('my-app')) // '/home/me/src/my-app'
 */
export async function projectPaths(home: string | undefined, tmpDir: string | undefined): Promise<ProjectPaths> {
  const bySlug = new Map<string, string>();
  const byHash = new Map<string, string>();
  if (home) {
    let registry: unknown;
    try {
      registry = JSON.parse((await readSmall(join(home, PROJECTS_FILE))) ?? 'null');
    } catch {
      registry = null;
    }
    for (const [path, slug] of Object.entries(asObj(asObj(registry)?.projects) ?? {})) {
      const name = asString(slug);
      if (name) bySlug.set(name, path);
      byHash.set(projectHashOf(path), path);
    }
  }
  const tmp = tmpDir ?? (home ? join(home, TMP_DIR) : undefined);
  return {
    async pathOf(folder) {
      if (tmp) {
        const marked = await markerPath(join(tmp, folder));
        if (marked) return marked;
      }
      if (home) {
        const fromHistory = await markerPath(join(home, HISTORY_DIR, folder));
        if (fromHistory) return fromHistory;
      }
      if (SHA256_RE.test(folder)) return byHash.get(folder);
      return bySlug.get(folder);
    },
  };
}
