// The session recorder: every runtime session is a Hindsight session of the runtime's own format,
// written as it runs. Each record is one line appended with one synchronous write to a file
// descriptor opened for appending, so a process killed at any instant leaves every earlier line
// whole and at most the line being written cut short (the ingest pipeline holds such a line back
// and reports it). sync() then brings the store up to date with the file — only its new lines —
// so every tool sees a step as soon as the runtime has taken it. The store is a convenience: when
// it cannot be opened or written, the recorder says so once and goes on recording; a later
// `hindsight ingest` reads the file like any other root.

import { randomUUID } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultSessionsRoot, sessionRelPath } from '../../formats/hindsight/index.js';
import type { RuntimeRecord } from '../../formats/hindsight/records.js';
import { openStore } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { findSessionFile } from './session-files.js';
import { syncSessionFile } from './store-sync.js';

/** A record as the runtime hands it over: the recorder adds session_id, seq and ts. */
export type RecordEntry = RuntimeRecord extends infer R ? (R extends RuntimeRecord ? Omit<R, 'session_id' | 'seq' | 'ts'> : never) : never;

export interface RecorderOptions {
  /** Where sessions are recorded (default: $XDG_DATA_HOME/hindsight/sessions, else ~/.local/share/hindsight/sessions). */
  sessionsRoot?: string;
  /** Resume this session: its file is found under the root and appended to. Default: a new UUID v4. */
  sessionId?: string;
  /** The time each record is stamped with (tests pass a fixed clock). */
  clock?: () => Date;
  /**
   * The store sync() writes to: a store the caller owns (left open on close), null for none
   * (recording only), or undefined for the default store (`db`, else $HINDSIGHT_DB, else the XDG
   * data folder), opened on the first sync and closed by close().
   */
  store?: Store | null;
  /** The default store's location when `store` is undefined (a file path or a postgres:// URL). */
  db?: string;
  /** Environment for the default locations (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Told once, the first time the store cannot be opened or brought up to date (default: a line on stderr). */
  onStoreWarning?: (message: string) => void;
}

export interface SessionRecorder {
  readonly sessionId: string;
  /** The session file (absolute). */
  readonly path: string;
  /** Append one record, synchronously. */
  record(entry: RecordEntry): void;
  /** Bring the store up to date with this file (best effort: never throws for the store's sake). */
  sync(): Promise<void>;
  /** Sync a last time (waiting briefly for another ingest), then close the file and an owned store. */
  close(): Promise<void>;
}

/** How long close() waits for another process's ingest before leaving the last lines to a later one. */
const CLOSE_WAIT_MS = 5_000;

/** Write all of `bytes` at the end of the file (appends are positioned by the kernel). */
function writeAll(fd: number, bytes: Buffer): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** The number of complete lines in an open file, and whether its last byte ends one. */
function lineCount(fd: number): { lines: number; endsWithNewline: boolean } {
  const size = fstatSync(fd).size;
  const buf = Buffer.alloc(Math.min(size, 1024 * 1024) || 1);
  let lines = 0;
  let last = 10;
  for (let pos = 0; pos < size; ) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n === 0) break;
    for (let i = 0; i < n; i++) if (buf[i] === 10) lines++;
    last = buf[n - 1]!;
    pos += n;
  }
  return { lines, endsWithNewline: last === 10 };
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Start recording a session (or resume one: its file is appended to, its numbering continued).
 *
 * @example
 * const rec = createRecorder({ store: null });
 * rec.record({ type: 'message', role: 'user', content: 'hello', turn: 1 });
 * await rec.sync();
 */
export function createRecorder(options: RecorderOptions = {}): SessionRecorder {
  const env = options.env ?? process.env;
  const clock = options.clock ?? (() => new Date());
  const root = options.sessionsRoot ?? defaultSessionsRoot(env);
  const sessionId = options.sessionId ?? randomUUID();
  const warn = options.onStoreWarning ?? ((message: string) => process.stderr.write(`${message}\n`));

  const existing = options.sessionId !== undefined ? findSessionFile(root, sessionId) : null;
  const relPath = existing ?? sessionRelPath(sessionId, clock());
  const path = join(root, ...relPath.split('/'));
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'a+');
  let seq = 0;
  let written = 0;
  if (existing) {
    const { lines, endsWithNewline } = lineCount(fd);
    seq = lines;
    if (!endsWithNewline) {
      // A line cut short by a killed process stays a bad line of its own, not the head of the
      // next record; it used its number, so a record's seq stays its line's index.
      writeAll(fd, Buffer.from('\n'));
      seq++;
    }
  }
  written = fstatSync(fd).size;

  let closed = false;
  // A resumed file may hold lines no store has seen yet: the first sync reads it whatever its size.
  let synced = existing ? -1 : 0;
  let store: Store | null | undefined = options.store;
  const ownsStore = options.store === undefined;
  let storeOff = options.store === null;
  let warned = false;

  function warnOnce(message: string): void {
    if (warned) return;
    warned = true;
    try {
      warn(message);
    } catch {
      // A warning handler's failure must not stop the recording.
    }
  }

  async function storeOrNull(): Promise<Store | null> {
    if (storeOff) return null;
    if (store) return store;
    try {
      store = await openStore({ db: options.db, env });
      return store;
    } catch (err) {
      storeOff = true;
      warnOnce(`The session is recorded at ${path}, but the store cannot be opened (${reasonOf(err)}); it is not kept up to date. Run hindsight ingest later to read the session.`);
      return null;
    }
  }

  // Calls made while a sync runs share the one that follows it: a runtime that syncs after
  // every step without waiting never queues more than one ingest behind the running one.
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  function sync(): Promise<void> {
    if (!running) {
      running = syncNow().finally(() => (running = null));
      return running;
    }
    next ??= running.then(() => {
      next = null;
      return sync();
    });
    return next;
  }

  async function syncNow(waitMs?: number): Promise<void> {
    if (written === synced) return;
    const target = await storeOrNull();
    if (!target) return;
    const upTo = written;
    try {
      await syncSessionFile(target, root, relPath, { waitMs });
      synced = upTo;
    } catch (err) {
      // Another ingest holds the store: the next sync reads these lines too (ingest is incremental).
      if ((err as { code?: string }).code === 'INGEST_BUSY') return;
      warnOnce(`The session is recorded at ${path}, but the store could not be brought up to date (${reasonOf(err)}); recording goes on. Run hindsight ingest later to read the session.`);
    }
  }

  return {
    sessionId,
    path,
    record(entry) {
      if (closed) throw new Error(`the recorder of session ${sessionId} is closed; ${entry.type} was not recorded`);
      // The type first, so a line reads (and is detected) by its head; then the envelope, then the record.
      const { type, ...fields } = entry;
      const line = `${JSON.stringify({ type, session_id: sessionId, seq, ts: clock().toISOString(), ...fields })}\n`;
      const bytes = Buffer.from(line);
      writeAll(fd, bytes);
      seq++;
      written += bytes.length;
    },
    sync: () => sync(),
    async close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
      await running;
      await next;
      await syncNow(CLOSE_WAIT_MS);
      if (ownsStore && store) await store.close().catch(() => undefined);
    },
  };
}
