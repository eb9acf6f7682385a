// The sync remote: an ordinary Hindsight shared store, plus tables of sync's own in it (machines,
// which machine and real root each staged root mirrors, held-back sessions, and push markers). The
// store keeps the SQL (store/sync-remote.ts); here every failure to reach it becomes one sentence,
// SYNC_REMOTE_UNREACHABLE, before anything local changes.

import { HindsightError } from '../core/errors.js';
import {
  failureReason,
  isSharedStoreUrl,
  isTransientFailure,
  LockFailed,
  openSyncRemote,
  shownLocation,
  type HeldRow,
  type RootMapping,
  type SyncRemote,
  type SyncTables,
} from '../store/sync-remote.js';
import type { Store } from '../store/store.js';
import { SyncRemoteNotPostgres, SyncRemoteUnreachable } from './errors.js';
import type { MachineIdentity } from './identity.js';

export type { HeldRow, RootMapping };

export interface Remote {
  store: Store;
  tables: SyncTables;
  /** The URL without its password. */
  location: string;
  close(): Promise<void>;
}

/** The application_name of sync's own connections (tests terminate them to simulate a server restart). */
export function syncAppName(): string {
  return `hindsight sync pid ${process.pid}`;
}

function unreachable(location: string, err: unknown): HindsightError {
  return SyncRemoteUnreachable(location, failureReason(err));
}

/** Open the remote store and sync's tables; an unreachable server is SYNC_REMOTE_UNREACHABLE, before anything local changes. */
export async function openRemote(url: string): Promise<Remote> {
  if (!isSharedStoreUrl(url)) throw SyncRemoteNotPostgres(url);
  let opened: SyncRemote;
  try {
    opened = await openSyncRemote(url, syncAppName());
  } catch (err) {
    // The store's sentence names --db; this one is about the remote.
    throw unreachable(shownLocation(url), err);
  }
  return opened;
}

/** One call to sync's tables; whatever fails after the store's retries is the remote being out of reach. */
async function guarded<T>(remote: Remote, fn: (t: SyncTables) => Promise<T>): Promise<T> {
  try {
    return await fn(remote.tables);
  } catch (err) {
    throw unreachable(remote.location, err);
  }
}

/** Record that a push of this machine finished these sessions at these sequences. */
export function recordPushed(remote: Remote, me: MachineIdentity, sequences: Map<string, number>): Promise<void> {
  return guarded(remote, (t) => t.recordPushed(me.machineId, sequences));
}

/** Session key → the sequence the last finished push of `machineId` left on the remote. */
export function pushedSequences(remote: Remote, machineId: string): Promise<Map<string, number>> {
  return guarded(remote, (t) => t.pushedSequences(machineId));
}

/** Record (or refresh) this machine's identity; every pushed root points at it. */
export function registerMachine(remote: Remote, me: MachineIdentity, what: 'push' | 'pull' | null): Promise<void> {
  return guarded(remote, (t) => t.registerMachine(me, what));
}

export function registerRoot(remote: Remote, me: MachineIdentity, stageRoot: string, originalRoot: string, format: string): Promise<void> {
  return guarded(remote, (t) => t.registerRoot({ stageRoot, machineId: me.machineId, originalRoot, format }));
}

/** Every staged root on the remote with its machine and the person behind it. */
export function rootMappings(remote: Remote): Promise<RootMapping[]> {
  return guarded(remote, (t) => t.rootMappings());
}

/**
 * Hold the push lock of the remote while `fn` runs: pushes from several machines take turns, so
 * "is this session already on the remote from another machine?" cannot race.
 */
export async function withPushLock<T>(remote: Remote, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
  try {
    return await remote.tables.withPushLock(fn, onWait);
  } catch (err) {
    if (err instanceof LockFailed) throw unreachable(remote.location, err);
    throw err;
  }
}

/** Turn a lost connection during a sync step into the sentence users get. */
export function asSyncError(remote: Remote, err: unknown): unknown {
  if (err instanceof HindsightError && err.code !== 'STORE_UNAVAILABLE') return err;
  if (err instanceof HindsightError) return SyncRemoteUnreachable(remote.location, err.message.replace(/^Lost the connection to the PostgreSQL store at \S+ \((.*?)\), and.*$/s, '$1'));
  if (isTransientFailure(err)) return unreachable(remote.location, err);
  return err;
}

/** Record that this machine held a session back (or clear it once it is no longer held). */
export function recordHeld(remote: Remote, me: MachineIdentity, rows: Omit<HeldRow, 'machineId'>[]): Promise<void> {
  return guarded(remote, (t) => t.recordHeld(me.machineId, rows));
}

/** Forget this machine's held-back records except for `keep`. */
export function clearHeld(remote: Remote, me: MachineIdentity, keep: string[]): Promise<void> {
  return guarded(remote, (t) => t.clearHeld(me.machineId, keep));
}

export function heldRows(remote: Remote): Promise<HeldRow[]> {
  return guarded(remote, (t) => t.heldRows());
}
