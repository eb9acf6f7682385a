// Where a workspace path really points. A path is resolved against the root, the nearest part of
// it that exists is resolved by real path (so symlinks are followed, including dangling ones), and
// the result must still lie inside the root: `..` escapes, absolute paths elsewhere and symlinks
// pointing out are refused before anything is read, written or run there.

import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PathOutsideWorkspace } from './execution-env.js';

/** Symlinks followed through a missing target before giving up (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real absolute path `path` (relative to `realRoot`, or absolute inside it) names, which may
 * not exist yet; throws PATH_OUTSIDE_WORKSPACE naming the path and why.
 *
 * @example confineToRoot('/work', 'src/a.ts') // '/work/src/a.ts'
 * @example confineToRoot('/work', '../etc/passwd') // throws: it leads out of the workspace root by ".."
 */
export function confineToRoot(realRoot: string, path: string, givenRoot: string = realRoot): string {
  if (path.includes('\0')) throw PathOutsideWorkspace(path.replace(/\0/g, '\\0'), 'it contains a NUL byte');
  let lexical: string;
  if (isAbsolute(path)) {
    lexical = resolve(path);
    // An absolute path may name the root as the caller spelled it (/tmp/x where /tmp is a link).
    if (!isInside(realRoot, lexical) && isInside(givenRoot, lexical)) lexical = join(realRoot, relative(givenRoot, lexical));
    if (!isInside(realRoot, lexical)) throw PathOutsideWorkspace(path, `it is an absolute path outside the workspace root ${realRoot}`);
  } else {
    lexical = resolve(realRoot, path);
    if (!isInside(realRoot, lexical)) throw PathOutsideWorkspace(path, 'it leads out of the workspace root by ".."');
  }
  const real = realPathOf(lexical, 0);
  if (!isInside(realRoot, real)) throw PathOutsideWorkspace(path, `it goes through a symlink that points outside the workspace root (to ${real})`);
  return real;
}

/** The real path of `path`, whose tail may not exist: the nearest existing ancestor's real path plus the rest. */
function realPathOf(path: string, hops: number): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch {
      const link = danglingLinkTarget(current);
      if (link !== undefined) {
        if (hops >= MAX_LINK_HOPS) throw PathOutsideWorkspace(path, 'it goes through too many symlinks');
        return join(realPathOf(link, hops + 1), ...missing.reverse());
      }
      const parent = dirname(current);
      if (parent === current) return join(current, ...missing.reverse());
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** Where a symlink whose target is missing would lead (writing through it creates that target). */
function danglingLinkTarget(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    return resolve(dirname(path), readlinkSync(path));
  } catch {
    return undefined;
  }
}
