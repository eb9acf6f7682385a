// Listing folders and peeking at file heads without ever throwing, for every format's discovery:
// an unreadable folder, a dangling link or a symlink loop becomes a reason the caller reports, and
// links are followed once (discovery has fixed depth).

import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

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

export interface ListError {
  error: string;
  code: string | undefined;
}

/** Byte order, the same on every machine and locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'symlink loop';
  if (code === 'ENOENT') return 'dangling symlink';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (err as Error).message ?? String(err);
}

/** What `path` is, following links; null when it cannot be examined. */
export async function kindOf(path: string): Promise<Entry['type'] | null> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  } catch {
    return null;
  }
}

/** The entries of `dir` sorted by name, each resolved through links; the reason when `dir` cannot be read. */
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

export function isListing(value: Listing | ListError): value is Listing {
  return (value as Listing).entries !== undefined;
}

/** Names in `dir` (unsorted), or [] when it cannot be read: for cheap probes only. */
export async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** The first `bytes` of a file as text ('' when it cannot be read). */
export async function headOf(path: string, bytes: number): Promise<string> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}
