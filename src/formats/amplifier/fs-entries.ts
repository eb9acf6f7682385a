// Listing folders without ever throwing: an unreadable folder, a dangling link or a symlink loop
// becomes a finding the caller reports, and links are followed once (discovery has fixed depth).

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compareNames } from './layout.js';

export interface Entry {
  name: string;
  path: string;
  type: 'file' | 'dir' | 'other';
  size: number;
}

export interface Listing {
  entries: Entry[];
  /** Entries that could not be examined (ELOOP, EACCES, dangling link), with the reason. */
  problems: { name: string; path: string; reason: string }[];
}

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'symlink loop';
  if (code === 'ENOENT') return 'dangling symlink';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (err as Error).message ?? String(err);
}

/** Stat a path following links; null when it cannot be. */
export async function statSafe(path: string): Promise<Entry['type'] | null> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  } catch {
    return null;
  }
}

/**
 * The entries of `dir`, sorted by name (byte order), each resolved through symlinks. Returns
 * the reason instead when the folder itself cannot be read.
 */
export async function listDir(dir: string): Promise<Listing | ListError> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    return { error: reasonOf(err), code: (err as NodeJS.ErrnoException).code };
  }
  names.sort(compareNames);
  const entries: Entry[] = [];
  const problems: Listing['problems'] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const s = await stat(path);
      entries.push({ name, path, type: s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other', size: s.size });
    } catch (err) {
      problems.push({ name, path, reason: reasonOf(err) });
    }
  }
  return { entries, problems };
}

export interface ListError {
  error: string;
  code: string | undefined;
}

export function isListing(value: Listing | ListError): value is Listing {
  return (value as Listing).entries !== undefined;
}
