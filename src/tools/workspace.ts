// Confinement for the workspace file tools: every path is resolved against the workspace root
// by real path, so `..`, absolute paths and symlinks that point outside are all refused.

import { realpathSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { defineError, InvalidArguments } from '../core/errors.js';

export const PathEscapesRoot = defineError(
  'PATH_ESCAPES_ROOT',
  (path: string) => `Path "${path}" is outside the workspace root; give a path relative to the root, without "..".`,
);
export const FileNotFound = defineError(
  'FILE_NOT_FOUND',
  (path: string, what: string) => `No ${what} at "${path}" under the workspace root. Use list_files to see what exists.`,
);

export const WrongKind = defineError(
  'WRONG_KIND',
  (path: string, expected: 'file' | 'folder', actual: string = expected === 'file' ? 'folder' : 'file') =>
    `"${path}" is a ${actual}, not a ${expected}; ${
      actual === 'folder' ? 'use list_files to look inside it' : actual === 'file' ? 'use read_file to read it' : 'only regular files can be read'
    }.`,
);

/** What a path is, in words, for errors: a FIFO must not be called a folder. */
export function kindOf(stat: Stats): string {
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'folder';
  if (stat.isFIFO()) return 'FIFO (named pipe)';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  return 'special file';
}
export const BinaryFile = defineError(
  'BINARY_FILE',
  (path: string, why: string) => `"${path}" looks binary (${why}); read_file only returns text.`,
);

/** The workspace root's real path (default: the current directory). */
export function workspaceRoot(root: string | undefined): string {
  return realpathSync(resolve(root ?? process.cwd()));
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Resolve `path` (relative to `root`) to a real path inside the root, or throw: absolute paths,
 * `..` that leaves the root and symlinks pointing out are refused; a missing path is not found.
 */
export function confine(root: string, path: string, what: 'file' | 'folder'): string {
  if (isAbsolute(path)) throw PathEscapesRoot(path);
  const lexical = resolve(root, path);
  if (!inside(root, lexical)) throw PathEscapesRoot(path);
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    throw FileNotFound(path, what);
  }
  if (!inside(root, real)) throw PathEscapesRoot(path);
  return real;
}

/** `path` relative to the root, with `/` separators. */
export function relativeTo(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/**
 * A filename pattern (`*`, `?`, `[abc]`) as an anchored RegExp; linear, no backtracking blow-up.
 * A pattern that does not compile (`[z-a]`) is an argument error, not a crash.
 */
export function globToRegExp(glob: string): RegExp {
  try {
    return compileGlob(glob);
  } catch {
    throw InvalidArguments(`glob "${glob}" is not a valid filename pattern (use *, ? and [abc]).`);
  }
}

function compileGlob(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) out += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}
