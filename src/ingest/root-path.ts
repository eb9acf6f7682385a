// A root as the store knows it: the real path (symlinks resolved, no trailing slash) that ingest
// recorded. Callers name roots however they reach them (through a symlink, with `..`, relative
// to the working folder), so every comparison with a stored root goes through the real path.

import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** The real path of `path`, or its absolute form when it does not exist (anymore). */
export function realRootPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/**
 * Whether `given` (as a user typed it) names the stored root `stored`. The stored root is a real
 * path already, but its folder may have been moved behind a symlink since, so both are resolved.
 */
export function sameRootPath(given: string, stored: string): boolean {
  if (given === stored) return true;
  const a = realRootPath(given);
  return a === stored || a === realRootPath(stored);
}
