// A folder that is no root itself but holds several (a backup of two machines' ~/.claude, an
// Amplifier home beside a Claude Code config folder): each root below it is found by the same
// detection ingest uses, and ingested as its own root. The search is bounded, does not follow
// links, and does not look inside a root it found.

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Format } from '../core/model.js';
import { detectFormat } from '../formats/registry.js';

/** Levels below the folder searched (backup/machine/.claude is two). */
const MAX_DEPTH = 3;
/** Folders looked at before giving up, so a home directory given by mistake stays quick. */
const MAX_FOLDERS = 2_000;

/** The roots below `dir` (not `dir` itself), in path order. */
export async function findRootsBelow(dir: string): Promise<{ path: string; format: Format }[]> {
  const found: { path: string; format: Format }[] = [];
  let level = [dir];
  let seen = 0;
  for (let depth = 1; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const parent of level) {
      const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (!e.isDirectory() || e.name === 'node_modules' || e.name === '.git') continue;
        if (++seen > MAX_FOLDERS) return found.sort((a, b) => (a.path < b.path ? -1 : 1));
        const path = join(parent, e.name);
        const format = await detectFormat(path);
        if (format) found.push({ path, format });
        else next.push(path);
      }
    }
    level = next;
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}
