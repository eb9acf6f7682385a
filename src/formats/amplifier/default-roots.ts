// Where Amplifier keeps sessions on this machine. amplifier-foundation's get_amplifier_home()
// resolves $AMPLIFIER_HOME first, then ~/.amplifier; we honour the same order.

import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { kindOf as statSafe } from '../shared/fs-entries.js';

function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/**
 * Existing Amplifier homes (folders with `projects/`), without duplicates.
 *
 * @example await amplifierDefaultRoots(process.env, os.homedir()) // ['/home/me/.amplifier']
 */
export async function amplifierDefaultRoots(env: NodeJS.ProcessEnv, home: string): Promise<string[]> {
  const candidates: string[] = [];
  const fromEnv = env.AMPLIFIER_HOME?.trim();
  if (fromEnv) candidates.push(expandHome(fromEnv, home));
  candidates.push(join(home, '.amplifier'));
  const roots: string[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if ((await statSafe(join(candidate, 'projects'))) !== 'dir') continue;
    const real = await realpath(candidate).catch(() => candidate);
    if (seen.has(real)) continue;
    seen.add(real);
    roots.push(candidate);
  }
  return roots;
}
