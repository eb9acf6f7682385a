// The single-writer lock for a SQLite store: a lock file beside the database holding the pid.
// SQLite would serialise writers anyway, but two ingests interleaving batches of the same file
// would each think they own its checkpoint; the lock makes the second one wait or say so.

import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { IngestBusy } from '../../core/errors.js';

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryTake(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function holder(lockPath: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Take the lock or throw IngestBusy; with `wait`, poll until it is free or the timeout passes.
 * A lock left by a dead process (SIGKILL) is taken over.
 */
export async function acquireIngestLock(
  dbPath: string,
  options: { wait?: boolean; waitTimeoutMs?: number } = {},
): Promise<() => void> {
  const lockPath = `${dbPath}.ingest-lock`;
  const deadline = Date.now() + (options.waitTimeoutMs ?? 60 * 60 * 1000);
  for (;;) {
    if (tryTake(lockPath)) break;
    const pid = holder(lockPath);
    // An empty lock file is a writer between create and write, unless it has been so for seconds.
    const halfWritten = pid === null && Date.now() - mtimeOf(lockPath) < 2000;
    if (!halfWritten && (pid === null || !pidAlive(pid))) {
      // Stale (or half-written) lock: remove it and retry the exclusive create.
      try {
        unlinkSync(lockPath);
      } catch {
        /* someone else removed it first */
      }
      continue;
    }
    if (!options.wait || Date.now() > deadline) throw IngestBusy(dbPath, pid ?? 0);
    await new Promise((r) => setTimeout(r, 200));
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (holder(lockPath) === process.pid) {
      try {
        unlinkSync(lockPath);
      } catch {
        /* already gone */
      }
    }
  };
}
