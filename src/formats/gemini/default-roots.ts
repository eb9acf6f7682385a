// Where Gemini CLI keeps chats on this machine. ccusage's rule: GEMINI_DATA_DIR (one folder or a
// comma-separated list, each a `tmp/` folder of project folders) when set, else ~/.gemini/tmp. We
// root the default at ~/.gemini itself so projects.json beside tmp/ can name the projects.

import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { kindOf } from '../shared/fs-entries.js';
import { TMP_DIR } from './layout.js';

function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/**
 * Existing Gemini roots, without duplicates.
 *
 * @example await geminiDefaultRoots({ GEMINI_DATA_DIR: '/backup/gemini/tmp' }, '/home/me') // ['/backup/gemini/tmp']
 */
export async function geminiDefaultRoots(env: NodeJS.ProcessEnv, home: string): Promise<string[]> {
  const fromEnv = env.GEMINI_DATA_DIR?.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const candidates = fromEnv && fromEnv.length > 0 ? fromEnv.map((p) => expandHome(p, home)) : [join(home, '.gemini')];
  const roots: string[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const usable = fromEnv && fromEnv.length > 0 ? (await kindOf(candidate)) === 'dir' : (await kindOf(join(candidate, TMP_DIR))) === 'dir';
    if (!usable) continue;
    const real = await realpath(candidate).catch(() => candidate);
    if (seen.has(real)) continue;
    seen.add(real);
    roots.push(candidate);
  }
  return roots;
}
