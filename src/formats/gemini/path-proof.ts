// The project path, proven from a chat's own content. Gemini writes `projectHash` =
// sha256(project root) into every chat but never the path; tool arguments and workspace
// directories name absolute paths, and the one whose sha256 equals the hash IS the project root
// (a hash match is proof, not a guess). Bounded: a few ancestors of a few paths per call.

import { asObj, asString } from './json.js';
import { projectHashOf } from './project-path.js';

/** Argument names Gemini's built-in tools use for paths (read_file, write_file, list_directory, replace, glob…). */
const PATH_KEYS = ['file_path', 'absolute_path', 'dir_path', 'path', 'directory', 'cwd'];
const MAX_DEPTH = 32;

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
}

/** `path` and its ancestors, deepest first (both separators, as Windows paths use either). */
function ancestors(path: string): string[] {
  const out: string[] = [];
  let cur = path.replace(/[\\/]+$/, '');
  for (let i = 0; i < MAX_DEPTH && cur !== '' && !/^[A-Za-z]:$/.test(cur); i++) {
    out.push(cur);
    const cut = Math.max(cur.lastIndexOf('/'), cur.lastIndexOf('\\'));
    if (cut <= 0) break;
    cur = cur.slice(0, cut);
  }
  return out;
}

/** The path among `paths` (or an ancestor of one) whose sha256 is `projectHash`. */
export function provenProjectPath(paths: readonly string[], projectHash: string): string | undefined {
  for (const p of paths) {
    if (!isAbsolute(p)) continue;
    for (const candidate of ancestors(p)) if (projectHashOf(candidate) === projectHash) return candidate;
  }
  return undefined;
}

/** Absolute paths named by a tool call's arguments. */
export function argumentPaths(args: unknown): string[] {
  const a = asObj(args);
  if (!a) return [];
  const out: string[] = [];
  for (const k of PATH_KEYS) {
    const v = asString(a[k]);
    if (v && isAbsolute(v) && v.length < 4096) out.push(v);
  }
  return out;
}
